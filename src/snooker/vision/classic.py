"""The classical ball detector: cloth model, ball-sized blobs, highlights, colour, game constraints.

Steps, all on the crop around the calibrated playing area:

1. The cloth is estimated per region (``cloth.py``); pixels that are not cloth form the foreground.
2. Every ball seen by broadcast lighting carries a small specular highlight near its top. Bright
   top-hat spots inside the foreground give one ball each, which separates the balls of the pack
   and touching balls even where their discs overlap in the image.
3. Foreground that no highlight explains (the cue ball's own highlight is invisible, blur smears
   highlights) is searched for ball-sized blobs with the distance transform. Blobs much wider than
   a ball (hands, arms) or much thinner (the cue, chalk lines) are rejected by the expected ball
   radius the calibration gives at each place.
4. A candidate must be round and rest on the playing area. Where it could be something else —
   no highlight, near a cushion (pocket leathers, nets), or inside a region that comes over the
   cushions (a player, the cue and their shadows) — it must also stand out from the cloth on a
   circle around it, and a highlight-less one must not be crossed by a stripe.
5. Each candidate's core colour is measured and the whole set is labelled jointly under the game's
   constraints (``colour.py``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import cv2
import numba
import numpy as np

from snooker.balls import CUE_BALL
from snooker.calibration.table import STANDARD_TABLE
from snooker.vision.cloth import (
    ClothCells,
    ClothConfig,
    ClothEstimate,
    cloth_cell_side,
    cloth_cells,
    cloth_from_grid,
    cloth_grid,
    cloth_saturation,
    estimate_cloth,
    grid_of_cells,
    histogram_median,
    not_cloth,
    not_cloth_in_windows,
    retake_cells,
)
from snooker.vision.colour import (
    FEATURE_NAMES,
    ColourConfig,
    FrameTransform,
    class_costs,
    core_features,
    fit_transform,
    lab_lightness,
    label_balls,
    warm_colour_conversions,
)
from snooker.vision.detector import CalibratedView, MissingBalls
from snooker.vision.peaks import POSITIVE, local_peaks
from snooker.vision.types import BallDetections


@dataclass(frozen=True)
class FollowerConfig:
    """How balls already known are followed (radii: the expected ball radius at the ball's place).

    - ``window_radii``: the window searched reaches this many radii beyond the ball's last and
      expected places, each way.
    - ``start_reach_radii``: the rim fit starts from the candidate (found in the window as the
      detector finds its candidates) nearest to the expected place, within this many radii.
    - ``min_disc_fill``: the disc of ``ClassicConfig.coverage_radius`` radii around the fitted
      centre must be foreground to at least this fraction (stricter than the detector's
      ``min_coverage``: a ball the follower keeps must be plainly there).
    - ``explained_radius``: foreground within this many radii of a known ball (and its shadow,
      ``ClassicConfig.shadow_extent``) is the ball's: wider than the detector's ``explained_radius``,
      as a moving ball's blurred rim and the halo of compression around it reach further...
    - ``max_stray_ball_areas``: ...and foreground in the window that no known ball explains, in
      ball discs πr², beyond this says the window holds something else (a new ball, the cue).
    """

    window_radii: float = 3.0
    start_reach_radii: float = 1.5
    min_disc_fill: float = 0.8
    explained_radius: float = 1.5
    max_stray_ball_areas: float = 0.3


@dataclass(frozen=True)
class ClassicConfig:
    """Every threshold of the classical detector. Radii are in units of the expected ball radius
    ``r`` at that place (from the calibration), so the detector scales with the camera."""

    cloth: ClothConfig = field(default_factory=ClothConfig)
    colour: ColourConfig = field(default_factory=ColourConfig)
    roi_margin_px: int = 16
    """Pixels added around the playing area's bounding box before cropping."""
    radius_grid_px: int = 32
    """Spacing (px) of the grid on which the expected ball radius is evaluated and interpolated."""
    ball_body_darker_ratio: float = 0.8
    """Below a highlight, pixels darker than this fraction of the cloth's brightness count as the
    ball's body even with the cloth's colour (the green ball in shade)."""
    cloth_scale: int = 2
    """The cloth model is estimated on the image shrunk by this factor (it varies slowly); the crop's
    sides are made multiples of it, so that its cells can be kept and taken again in part."""
    smooth_kernel_px: int = 5
    """Side (px) of the median filter that removes specks and thin lines from the foreground and
    fills pinholes (the black ball's body mirrors the green cloth in places)..."""
    small_ball_radius_px: float = 6.0
    """...but where the typical ball is smaller than this radius (px), ``small_ball_kernel_px``:
    a 5-px square over balls of radius 4.4-5 px (640×360) joins balls that touch (Task1 stills at
    640×360 counted right: 85.7 % → 91.8 %). At 960×540 (radius 6.6-7.5 px) 5 px does better than
    3 on compressed frames (the other_broadcast perturbation: 93.9 % against 89.8 %), so the switch
    is not a scale factor."""
    small_ball_kernel_px: int = 3
    highlight_min_tophat: float = 40.0
    """Lab lightness (0–255) a highlight must exceed its neighbourhood by (white top-hat)."""
    highlight_min_lightness: float = 150.0
    """Lab lightness (0–255) a highlight pixel must reach at the exposure of
    ``highlight_reference_cloth_lightness``; on a darker broadcast (a darker bare cloth) it is
    scaled down with the cloth's lightness..."""
    highlight_min_lightness_ratio: float = 1.3
    """...or this many times the bare cloth's median lightness, where that is lower: a darker
    broadcast dims the highlights with everything else (the training stills' cloths measure 114
    to 168)."""
    highlight_reference_cloth_lightness: float = 139.0
    """Bare-cloth median Lab lightness (0–255) at which ``highlight_min_lightness`` applies as it
    is: a specular highlight's lightness follows the exposure as the cloth's does, so below this
    the floor is scaled by the exposure, cloth lightness / this (never above 1). 139 is the median
    bare cloth of the Task1 training stills (49 stills: min 114, median 139, max 168), the typical
    exposure the floor was set at: 26 stills keep 150, the 23 darker see it lowered (at
    the darkest, 114, to 123). Task2 clips darkened to exposure 0.7 lost 3 of 16 pots to the
    fixed floor (pots 88 → 96 of 100). The brightest still (168) as the reference, which lowers
    the floor on every still (to 0.89 times the cloth), did as well on those clips but lost
    inventories on the perturbed stills (mean 95.6 → 91.8 %; 139: 95.3 %). With these defaults
    the floor is min(``highlight_min_lightness``, 150/139 · cloth lightness), so
    ``highlight_min_lightness_ratio`` (1.3) binds only for a reference below 150/1.3 = 115."""
    cloth_lightness_step_px: int = 8
    """The bare cloth's median lightness is taken over every this many-th pixel (in x and y)."""
    highlight_max_area: float = 0.5
    """Largest highlight, as a fraction of the ball's disc area πr² (bigger is not a highlight)."""
    highlight_offset: float = 0.35
    """The ball's centre lies this many radii below its highlight in the image (lights above)."""
    highlight_surround: float = 0.5
    """A highlight lies inside its ball: the disc of this many radii around it is foreground..."""
    highlight_min_surround: float = 0.85
    """...to at least this fraction (spots on a ball's rim, e.g. the cue ball's glow, are not)..."""
    highlight_surround_beyond_area: bool = True
    """...where the part of that disc's upper half (above the highlight in the image) beyond the
    playing area counts as foreground (not judged: the foreground is only known on the playing
    area; the blob search takes all of it so). A ball resting by the far cushion rises over the
    nose line, and its highlight, near its top, lies at the area's edge with half its surround
    beyond it: judged on the area alone it failed, and the ball was
    left to the blob search, whose test of the cloth around it (the cushion's shaded band below
    the nose counts as foreground or not as the broadcast's tone curve goes) lost it (Task1
    4.jpg's black, under gamma 0.8, saturation 1.25 and at 960x540). Its lower half is judged on
    the area alone: counted there too, a glint on a pocket's jaw beside the opening made a ball
    (Task1 5.jpg's near left pocket: a "green")..."""
    highlight_surround_pocket_mm: float = 120.0
    """...and the whole disc is judged on the area alone where the ball the highlight implies lies
    within this distance (mm) of a pocket's mouth centre: the cut cushions' rounded points by a
    pocket shine, with the opening and the rail beyond the area above them (glints 37 and 88 mm
    from the mouth: Task1 5.jpg; Task2 clip 2 at exposure 0.7 and at a low bit rate, named a
    green whose pot was invented)."""
    highlight_surround_loose_body: bool = True
    """A highlight whose surround falls short on the ball-body mask is judged again, on the same
    disc and to the same fraction, on the loose body: the median over the same smoothing squares
    of what is either not the cloth's colour or darker than the cloth, the two together (the
    body mask is the median of each alone, so a square where they mix, neither a majority, is
    left out of it). A black ball mirrors the cloth: along its upper rim, where the surround of its
    highlight reaches, its pixels alternate between a sheen of another hue (not darker) and the
    mirrored cloth (darker, of the cloth's hue), and the body's top is eaten away (Task1 25.jpg
    at saturation 1.25: 0.82 and 0.84 of the disc, loose 1.00 and 0.98; 39.jpg at JPEG quality
    30, the black touching the white: 0.84, loose 0.98; both blacks were left without a
    candidate). Only on the cloth: not in a region coming over the cushions (``intruder_min_area``:
    a hand or a sleeve and their shadows are loose body all over, which cannot outline a ball
    there: a knuckle of 4.jpg's bridge hand at saturation 1.25, 0.82, loose 0.86, was named
    white), nor where the ball it implies lies within ``highlight_surround_pocket_mm`` of a
    pocket's mouth (the cut cushions' points shine beside the dark opening). Judged on the masks
    the body is made from, the painted lines' paint taken out where they show
    (``mask_table_markings``): a line is no ball's body, and with it a bright pixel on the line
    beside a ball or a sleeve, judged loose, was a ball (a rendered overhead 960 x 540 clip, the
    D's arc meeting the green and the yellow: 0.37 of the disc, loose with the paint 0.98 and
    0.86, without it 0.39 and 0.37; the green placed 5 px off and the first contact read green;
    at JPEG quality 50-90 the baulk colours on their spots lost or placed 3-7 px off). Weaker
    evidence than the body's: such a highlight merged with one the body holds is that ball's, and
    its ball is let in only after the others, where none of them lies (see
    :func:`_loose_spots_apart`: the rim of a ball over its own shadow is loose body too)."""
    highlight_merge: float = 0.6
    """Highlight spots closer than this many radii are one ball's (twin lamps make twin spots)."""
    bodiless_shadow_offset: float = 0.9
    """A ball whose body matches the cloth (the green ball in a dull or washed-out broadcast) shows
    only its highlight and its shadow: a highlight outside the foreground still makes a candidate
    when the disc below it is not foreground and, this many radii below the implied centre..."""
    bodiless_shadow_ratio: float = 0.75
    """...the picture's mean lightness is at most this fraction of the cloth's (its shaded lower
    half and cast shadow; a mark on the cloth or a glint on nothing has no shadow)..."""
    bodiless_shadow_half: float = 0.3
    """...over a square of this half-side (radii); the cloth's lightness is the median of the
    bare cloth on a circle of ``bodiless_ring`` radii around the implied centre."""
    bodiless_ring: float = 2.2
    """Radius (in r) of that circle..."""
    bodiless_min_bare: float = 0.8
    """...of which at least this fraction must be bare cloth inside the playing area: a bodiless
    ball lies alone on the cloth (a glint by a cushion, a rail or another ball is not one)."""
    bodiless_max_region: float = 0.6
    """The foreground region holding the highlight is at most this many ball discs πr² (a glow
    on the rim of a visible ball belongs to that ball's whole disc)."""
    partial_max_region: float = 1.5
    """A ball whose body shows only in part (the green ball's lit top or shaded bottom where a
    broadcast brings its colour near the cloth's) has a highlight that is neither inside its
    foreground nor over bare cloth: with the shadow and the bare cloth around it of a bodiless
    ball, it still makes a candidate when the region holding it is at most this many ball discs
    πr² (a ball with its shadow) and no other candidate lies within a ball's diameter of it (a
    glow on the rim of a ball found otherwise is that ball's)."""
    min_coverage: float = 0.55
    """Fraction of the disc of radius ``coverage_radius`` r that must be foreground."""
    coverage_radius: float = 0.75
    """Radius (in r) of the disc whose foreground fraction is tested."""
    round_radii: tuple[float, ...] = (0.45, 0.75)
    """A ball is round: along most of ``round_directions`` directions from its centre, the points
    at these radii (in r) are foreground..."""
    round_directions: int = 8
    """...(number of directions, evenly spread)..."""
    min_round_fill: float = 0.5
    """...to at least this fraction (per direction)..."""
    min_round_directions: float = 0.6
    """...in at least this fraction of the directions: a cue or a line through a candidate fills
    two to four directions of eight; a green ball whose shaded half matches the cloth, five."""
    cushion_margin_mm: float = 8.0
    """A ball's centre rests a ball radius inside the cushion noses; candidates further out than
    this tolerance (mm) are the cushion, a rail or a pocket edge..."""
    jaws_reach_mm: float = 45.0
    """...except in a pocket's jaws, where the cushions are cut away: a ball can rest there with
    its centre up to this far (mm) from the pocket's mouth centre (beyond it, it drops)."""
    jaws_beyond_radii: float = 0.25
    """Seen from the table's side (the far corners of a broadcast view, the corners from overhead)
    a ball resting in a pocket's jaws shows, at a ball's height, with its centre outside the
    cloth's outline drawn at the cloth's height, which holds only a sliver of it (a red on the far
    corner's lip at 1280 x 720: its centre 7 px, 0.9 radii, above the outline). Where a ball's
    centre within ``jaws_reach_mm`` of a mouth centre shows more than this many ball radii outside
    the outline, the pixels within a ball's radius of it are the jaws beyond the outline
    (``TableGeometry.jaws``), searched where they changed (``jaws_change_levels``). Nearer the
    outline a ball is found by its part inside (rendered balls resting in the near jaws: 0.0 and
    0.11 radii outside)."""
    jaws_change_levels: float = 40.0
    """The jaws beyond the outline hold the cushions' leather, the pockets' nets and holes, which
    shine and darken like balls (searched whole, as the cloth is, the real far corners of Task1
    3.jpg, 5.jpg, 23.jpg, 44.jpg gave balls: stills 100 % -> 91.8 %): a pixel there is searched
    only where, in some channel, it differs by more than this (8-bit levels) from the jaws'
    reference (:class:`JawsReference`: their picture with no ball there). Rendered 1280 x 720
    frames: two pictures of the empty jaws differ by 17 at most (13-14 at the 99.9th percentile);
    a red, white or black on a far corner's lip by 49-54 or more over 90 % of its disc (the black,
    the least; a red 82, a white 109)."""
    jaws_min_disc_share: float = 0.5
    """...and only in a connected part of such changed pixels at least this share of a ball's disc
    (pi r^2, r the ball radius expected there) in area: a ball with its centre ``jaws_beyond_radii``
    outside the outline shows 0.66 of its disc beyond it (less its parts that happen to match the
    jaws behind); a ball found by its part inside, creeping a few px further out, changes a
    crescent (a white at the far corner of the synthetic test view: its full detection, with no
    jaws searched, is the region search's)."""
    jaws_kept_radii: float = 1.5
    """The jaws' reference is refreshed at each detection except within this many ball radii of
    a ball kept (its shadow included): a ball resting in the jaws stays changed against it."""
    explained_radius: float = 1.15
    """Foreground within this many radii of a found ball is explained by it (includes shadow)."""
    shadow_extent: float = 0.6
    """Also explained: this many radii further below each ball (its shadow on the cloth)..."""
    unshadowed_blob_depth: float = 0.65
    """...unless a blob this many radii deep remains without that extension: a ball resting just
    below another (touching it) covers its shadow, and a shadow is never that deep."""
    min_blob_depth: float = 0.55
    """A blob must be at least this many radii deep (distance transform) to be a ball."""
    max_blob_depth: float = 1.6
    """Deeper than this many radii is a hand, arm or cloth-coloured object, not a ball."""
    blob_peak_window: float = 1.0
    """Distance-transform peaks are local maxima over a window of this many radii."""
    min_separation_mm: float = 40.0
    """Two highlight candidates closer than this on the table (mm; touching balls are 52.5 mm
    apart) are one ball..."""
    distinct_highlight_min_area: float = 0.01
    """...unless their highlights place them (``highlight_offset`` below each, before each is
    centred on its foreground by ``refine_reach``) that far apart or more and both highlights
    cover at least this fraction of a ball's disc πr². Centring may move each of two touching
    balls up to half a radius towards the other, and whether they then fell within
    ``min_separation_mm`` turned on the broadcast's look (Task1 49.jpg: the pink above the pack's
    apex red, their highlights placing them 55 mm apart, centred 34 to 45 mm apart, the red
    lost desaturated or saturated; 35.jpg: a red above the black on its spot, the black lost at
    gamma 0.8). A single-pixel glint where two balls of the pack meet (Task1 23.jpg and 32.jpg:
    0.003-0.004 of the disc, against 0.02-0.18 for the highlights of those balls) places a ball
    as far from them, and is still one with the ball its centring reaches..."""
    distinct_highlight_min_peak: float = 1.2
    """...and both highlights peak at this many times the bare cloth's median Lab lightness or
    more, within ``distinct_highlight_peak_window`` radii of their centroid: a specular highlight
    nears white (those balls' 220-254 on cloths of 124-150, 1.5 times or more; 1.3 where a
    brighter broadcast lifts the cloth to 196 and the highlight clips at 255), while such a glint
    is a mid-tone that follows the cloth (23.jpg's 1.06; at gamma 0.8 it spreads over 15 px,
    0.06 of the disc, so its area alone does not tell it; 18.jpg's 1.02 at exposure 1.3)...
    Neither is asked of candidates in a region coming over the cushions (``intruder_min_area``):
    the knuckles, nails and ferrule of a hand and cue shine as highlights, and the ring test
    judges them alone (Task1 4.jpg at other_broadcast: a "brown" in the bridge hand). Where a
    test fails, the pair is judged on its centred places as before."""
    distinct_highlight_min_centred_mm: float = 26.0
    """...and their centred places lie at least this far apart (mm): two touching balls, 52.5 mm
    apart, each moved at most half a radius (``refine_reach``) towards the other, stay about a
    ball's radius (26 mm) apart; closer, the two highlights are one ball's (a yellow's highlight
    and its bright body at a low bit rate, Task2 clip 6, where at the far end a few pixels make
    40 mm: named yellow and white, the white's track lost the black's pot)."""
    distinct_highlight_peak_window: float = 0.3
    """Half-side (in r) of the square around a highlight's centroid where its peak is taken (twin
    lamps' spots, merged, lie either side of it)."""
    blob_separation_mm: float = 40.0
    """A highlight-less blob closer than this (mm) to another candidate is part of that ball; a
    touching ball's centre is 52.5 mm away, so the cue ball (whose highlight does not show) resting
    against another ball is a ball of its own."""
    foreign_blobs: bool = True
    """A ball whose highlight is lost in its saturated body (the cue ball, lit brightly) is found
    as a blob only where no highlight's ball explains its foreground; resting against another
    ball nearer the camera's far side, it lies inside that ball's explained disc (seen from a
    broadcast camera the two overlap by most of a radius: ``touching_ball_pushed``, seed 0, the
    white never a candidate, and the red it touches, read on the white's pixels, named pink).
    Where on, each highlight's ball is looked through for foreground of another colour than its
    own and brighter (see ``foreign_lighter``): pixels of its explained region (``explained_radius``
    and its shadow) whose chromaticity lies ``foreign_chroma`` or more from the median of its own
    around its highlight (within ``foreign_reference_radius`` radii of it, the highlight's own
    pixels left out). Where they are enough to hold a ball-deep blob (a disc of
    ``min_blob_depth`` radii), the deepest point of such pixels in a box around that region (a
    ball's radius wider) is a blob candidate, held to the tests of the others. Only the boxes of
    the balls holding such pixels are searched (compiled)."""
    foreign_reference_radius: float = 0.5
    """Radius (in r) of the disc around a highlight where its ball's own colour is read."""
    foreign_chroma: float = 0.12
    """Least distance (in B, G, R over their sum) of a foreign pixel's chromaticity from the ball's."""
    foreign_lighter: float = 40.0
    """A foreign pixel's Lab lightness (0-255) is at least this much above the median of the
    ball's own (its shading, its shadow and the cloth are darker; a body bright enough to hide its
    highlight is lighter). The ball's core is read without such pixels (``ColourConfig``'s
    ``core_features``): a red the white rests against in front of it read the white's too, and
    was named pink."""
    foreign_separation_mm: float = 26.0
    """A foreign blob is kept this far (mm) or more from every other candidate: of another colour
    than the ball whose region holds it, it is no part of that ball (``blob_separation_mm``), and
    two touching balls, 52.5 mm apart, each found up to half a radius towards the other (the
    ball centred on both their foreground, the blob's depth cut by the white's shaded side, darker
    than ``foreign_lighter``), stay about a radius apart (``distinct_highlight_min_centred_mm``)."""
    dark_blobs: bool = True
    """A dark ball blurred by its motion is a streak of the cloth darkened, of the cloth's hue: on
    a broadcast that keeps dark greens saturated it differs from the cloth in chromaticity and is
    foreground, but under another grading (more or less saturated, darker mid-tones, a low bit
    rate) its pixels differ only in brightness (0.6 to 0.7 of the cloth's on Task2 clip 6's black
    at 50 px a frame, far above ``ClothConfig.dark_ratio``), and no candidate was there. Where on,
    ball-deep blobs of the ball-body mask (darker than ``ball_body_darker_ratio`` times the cloth)
    that no other candidate explains are candidates too, held to the tests of a blob without a
    highlight on that mask (round in it; standing out from cloth neither foreground nor darker on
    ``intruder_ball_min_cloth`` of their ring: in a player's or the cue's shadow the ring is shade).
    Such a candidate is an unnamed place, never named: it reads the cloth mixed with the ball (the
    tracker follows a fast ball through such places, as it does a blurred ball the foreground
    holds)."""
    dark_blob_cushion_mm: float = 60.0
    """...but not within this distance (mm) of a cushion nose: the cushion's face shades the cloth
    along it in a band of the cloth's hue, ball-deep at the far end (Task1 4.jpg at gamma 0.8:
    three places along the top cushion, 52 px from the top, one named green)."""
    dark_blobs_where_missing: bool = True
    """The full detection looks for such blobs everywhere; a region search (``redetect``) only
    where one can be missing: in every window while the caller has lost a ball that may be dark
    (``dark_blob_names``, or named with less confidence than ``dark_blob_sure_confidence``) at most
    ``dark_blob_missing_frames`` frames before and not found it since (a ball blurred in flight may
    be anywhere the picture changed), else in the
    windows whose known balls — the last detection's named balls and unnamed places their cores
    hold — are not all found again by the other candidates (each by a plausible one of its own
    within ``dark_blob_found_radii`` in the window), and in the windows overlapping those (the
    tiles of one region). A dark ball struck hard leaves its place in a window that knew it, and
    in flight it is an unnamed place the next window knows. False: every region search looks."""
    dark_blob_names: tuple[str, ...] = ("black", "brown", "blue", "green")
    """The balls that can be darker than the cloth blurred over it (``dark_blobs_where_missing``)."""
    dark_blob_sure_confidence: float = 0.5
    """A lost ball named with less confidence than this (0-1, the naming's posterior) may have been
    a dark one (``dark_blobs_where_missing``)."""
    dark_blob_missing_frames: int = 5
    """A lost ball that may be dark makes every window of a region search look for dark blobs
    (``dark_blobs_where_missing``) for this many frames after it was lost (``MissingBalls.age``, 1
    on the frame after; 0: never), no longer. On the 25 Task2 clips (the originals and three
    looks) the places only this search kept were the lost ball in flight up to 5 frames after its
    loss (clip 12's black, 60-75 px a frame, outside the windows that knew it at ages 1, 3 and 5);
    later ones were not (still, or along a cushion far from it), and a dark ball unfound that long
    is mostly a potted one, gone for good (issue #8)."""
    dark_blob_found_radii: float = 5.0
    """A window's known ball is found again by a plausible candidate within this many ball radii of
    where it was (a ball's motion in a frame; the motion gate's ``motion_match_radii``)."""
    intruder_min_area: float = 6.0
    """A foreground region that reaches the cushions and covers more than this many ball areas
    (πr²) is a player, the cue or a shadow coming over the cushion: a ball in it must stand out."""
    intruder_ball_ring: float = 1.6
    """A ball without a highlight, or touched by an intruder (the cue on the cue ball), still shows
    cloth on most of the circle of this many radii around it..."""
    intruder_ball_min_cloth: float = 0.45
    """...at least this fraction of that circle."""
    intruder_blob_min_cloth: float = 0.75
    """A highlight-less blob inside an intruding region (the cue ball under the cue; or a hand,
    the cue's shadow) must show at least this fraction of cloth on that circle, touched on one
    side only (a narrow cue tip), never crossed on two opposite sides (a stripe)."""
    ring_edge_px: int = 4
    """Ring samples closer than this (px) to the playing area's edge are not judged."""
    mouth_blob_reach_mm: float = 60.0
    """Within this distance (mm) of a pocket's mouth centre, where the cushions are cut away, the
    opening and the cut cushion's shaded face beside the leather show as dark, fixed, ball-sized
    blobs with hardly any cloth around them; at a low bit rate they become candidates without a
    highlight, named as balls (Task2 clips 11 to 15: a "green" or "black" 9 to 47 mm from the
    near right corner's mouth, in up to 78 frames of a clip; one took the name of a green missed
    elsewhere, one the potted black's track). A highlight-less candidate there is such a blob
    when all of the following hold (a ball resting in the jaws shows its highlight and is found
    by it: Task2 clip 3's black)..."""
    mouth_blob_min_judged_ring: float = 1.0 / 3.0
    """...fewer than this fraction of its ring's samples are judged (inside the playing area: the
    blobs had 4 to 9 of 32; away from the pockets a cue ball frozen on the far cushion at 1280×720
    has only 9 to 11, so the rule is kept to the mouths)..."""
    mouth_blob_dark_ratio: float = 0.8
    """...the mean Lab lightness over its disc of ``coverage_radius`` is below this fraction of the
    bare cloth's median (the blobs: 0.47-0.61; the cue ball crept into the jaws, highlight-less
    in the synthetic scene: 1.5)..."""
    mouth_blob_hue_share: float = 1.0 / 3.0
    """...and its mean Lab a* (green negative) is at least this share of the cloth's, towards green:
    it keeps the cloth's hue, the shade of the cloth or the cloth seen through the compression
    (the blobs: a* -20 to -27 against the cloth's -41); a ball dropping into the jaws, blurred
    without its highlight, shows its own colour (reds +14 and +28, the black -2 on the originals,
    Task2 clips 1, 18 and 5)."""
    ring_samples: int = 32
    """Points on the circle of ``intruder_ball_ring`` radii (even: opposite points are paired)."""
    ring_shade_max_lightness_ratio: float = 0.9
    """A point of the circle of ``intruder_ball_ring`` radii that is foreground is the cloth in
    shade, and counts as cloth there, where its Lab lightness is at most this fraction of the
    local cloth's (the cloth model's)... A shadow on the cloth is foreground (the dark pixels'
    chromaticity is far from the cloth's), and a ball beside a player's arm or the cue lies in
    theirs: Task1 12.jpg's brown, by the far cushion in the shadow of the arm and the cue, had 4 of
    its 19 judged points on lit cloth (0.21, below ``intruder_ball_min_cloth``) and 8 more on shaded
    cloth at 0.50 to 0.80 of its lightness: lost on the still and under 13 of the 14 looks of
    ``scripts/eval_inventory.py --perturb``; 40.jpg's white, without its highlight under the
    magenta tint, had its own shadow and the cue's on the circle (22 of 32 on lit cloth, below
    ``intruder_blob_min_cloth``; 28 with the shade). Pixels at the edge of something bright
    blurred into the cloth are foreground at nearly its lightness (a player's hair, 4.jpg: 0.97 and
    0.98; with them a glint in the hair was named pink): they are not shade..."""
    ring_shade_min_chroma_share: float = 0.5
    """...its Lab chroma along the cloth's hue is at least this share of the cloth's (shade scales
    the cloth's chroma down with its lightness: 12.jpg's 0.50 to 0.70; the ball's own shadow right
    under it, darker and greyer, 0.24 to 0.28, stays blocked; grey or skin near 0)..."""
    ring_shade_max_hue_deg: float = 15.0
    """...and its hue lies within this angle (degrees) of the cloth's (12.jpg's shaded cloth: 3° to
    13°; under the tints of the look the cloth model is measured in the same picture, so the hue
    moves with it). A candidate whose circle is crossed on two opposite sides by what is neither
    cloth nor shade lies inside it (a glint on a bridge hand, with the hand's shadow beside it:
    9.jpg darker and at JPEG quality 30, named black; 4.jpg at JPEG quality 30, green) and is
    judged without the shade."""
    near_cushion_mm: float = 60.0
    """Candidates whose centre is closer than this (mm) to a cushion nose must stand out from the
    cloth like highlight-less blobs (pocket leather, nets and jaws shine like balls)."""
    boundary_band_px: int = 4
    """Width (px) of the band inside the playing area's edge that tells a region reaches it."""
    refine_radius: float = 0.85
    """Radius (in r) of the disc whose foreground coverage centres a candidate on its ball."""
    refine_reach: float = 0.5
    """A candidate moves at most this many radii (in x and y) when it is centred."""
    refine_distance_penalty: float = 0.15
    """Coverage given up per radius moved, so a candidate in a uniform pack stays where it is."""
    relabel_from_last_transform: bool = True
    """When only changed regions are detected again, the candidates are named starting from the
    colour transform the last naming of the view settled on alone, not from every exposure of
    ``colour.exposure_gains`` (the broadcast's grading holds while the view does; a full detection
    searches them all again)..."""
    relabel_from_searched_transform: bool = True
    """...and also from the transform the view's last full detection settled on, searched from
    every exposure; the cheaper joint naming wins (by ``relabel_searched_margin``). The last
    naming's transform is fitted to one frame's balls and follows a single odd reading: where the
    white is not found, the yellow alone sets the bright end of the tone curve (its model is the
    tightest in lightness), and a yellow read dim while it passes the white drags the exposure down
    until, read bright again, it fits the white better than the yellow, and refining from there
    keeps that naming (Task2 clip 4 at gamma 1.25: the yellow named white for three frames, the
    white not found, its track carried off with the yellow's). The searched transform is the
    grading the whole ball set agreed on; from it the refinement reaches the naming a full search
    would..."""
    white_reach_mm: float = 500.0
    """A region search's candidate within this distance (table mm) of where the view's last naming
    had the white is taken for where the cue ball may be now (``colour.white_continuity_cost``):
    the farthest a cue ball travels between two frames (a hard break-off's 12 m/s over 1/25 s is
    480 mm; the rendered pack split's 8 m/s at 30 fps, 267 mm)."""
    relabel_searched_margin: float = 2.0
    """...but that naming replaces the one from the last naming's transform only where it costs
    less by more than this (the naming's cost units, half a squared Mahalanobis distance: a negative
    log-likelihood; 2 is odds of e² ≈ 7 to 1). Where a ball's reading is near a tie between two
    namings (a blurred cue ball named or left out), the cheaper of the two flips with small moves of
    the transform, and the last naming's keeps the view's names steady from frame to frame; a
    transform dragged off by one odd reading costs far more (4.2 on that clip's frame 84, against
    1.0 for the struck cue ball left out on one frame of the rendered pack split, whose pot of a
    red was then invented). Since the transform is fitted only to the balls that fit it sharply
    (``colour.transform_fit_max_distance``), the blurred cue ball no longer drags it, and neither
    naming names it on its reading alone; where it was a frame ago it is named
    (``white_reach_mm``)."""
    redetect_fresh_cloth: bool = True
    """When only changed regions are detected again, the cloth model inside them is estimated again
    from the frame rather than kept from the last full detection: a search of a region then sees
    the cloth a full detection of the frame would (but for the whole cloth's saturation, kept, and
    the reference a cell that is not cloth-like takes, the median of all cells of which only those
    around the windows are taken again: see ``redetect_fresh_cloth_reference``), and a ball on a
    knife-edge of it (a black against the far cushion) is found alike by both."""
    redetect_fresh_cloth_reference: bool = True
    """...and the reference of cloth-like cells is this frame's too: every cell's median is taken
    again (``cloth.retake_cells``: all 176 cells of a 1280 × 720 broadcast's crop, 0.4 ms; 0.2-0.4
    ms a frame more on Task2 clips 1-8), not only those around the windows, so that inside the
    windows the model is a full detection's bit for bit even where the picture changed outside
    them. Cells kept from an earlier frame move the reference (a bridge hand over three cells, away
    from every window; the broadcast's exposure moving between full detections), and a cell near the
    limit of cloth-likeness (``ClothConfig.max_cell_chroma_deviation``: the lighter cloth along a
    cushion) then takes the reference where a full detection keeps it, or the other way round:
    Task2 clip 6 at 25 fps, the black struck into a corner pocket, blurred to a dark smudge 76 mm
    from the cushion, stood out from its cell's own cloth (brightness 188, chromaticity 0.076 from
    this frame's reference) but not from the reference that replaced it (156; the cell 0.086 from a
    reference moved by four kept cells, three under the bridge hand), and the region search lost it
    where the full detection found it."""
    rim_rays: int = 48
    """A found ball is centred to a fraction of a pixel on its rim, seen along this many rays..."""
    rim_below_horizontal_deg: float = 55.0
    """...spread over its rim from this far below the horizontal on one side, over the top, to as
    far on the other: the sector left out at the bottom (70°) is where the ball's shaded half meets
    its own shadow, cast straight down by the lamps above the table, and shows no rim..."""
    rim_search: tuple[float, float] = (0.5, 1.6)
    """...where each ray leaves the ball's foreground between these radii (in r; a ray still in
    the foreground at the outer one runs into a touching ball, the cue or a hand and is not used;
    not the ball-body mask, which takes in the shadow too)..."""
    rim_step: float = 0.05
    """...sampled every this many radii (bilinear on the mask averaged over ``rim_mask_average_px``
    pixels square, so the rim point moves smoothly with the picture)..."""
    rim_mask_average_px: int = 3
    """Side (px) of the square over which the mask is averaged for the rim search."""
    rim_min_rays: float = 0.6
    """...and the least-squares circle through the rim points is used when at least this fraction
    of the rays found the rim..."""
    rim_outlier: float = 0.15
    """...fitted again without the rim points farther than this many radii from the first circle
    (a ray that ran on into the ball's shadow or along a touching ball)..."""
    rim_radius_range: tuple[float, float] = (0.7, 1.4)
    """...its radius lies within this range (in r)..."""
    rim_max_shift: float = 0.5
    """...and its centre lies within this many radii of the candidate's (else the candidate stays,
    but see ``rim_refit_max_shift``)."""
    rim_refit_shift: float = 0.25
    """A fit that moved the centre up (its shift up larger than its shift sideways) by more than
    this many radii is fitted again from its own centre, up to ``rim_refits`` times, until one
    moves less: the fit from a start off the ball is drawn towards the start (rays cross the rim
    obliquely, the bottom sector left out is the start's, rays from a start in the shadow run
    along it). A ball without a highlight (the cue ball, a blurred ball) is a blob centred on its
    foreground, which takes in its shadow below it (and the cue beside it), so its candidate lies
    up to half a radius or more below the ball: on Task2 clips 4 and 19 (the white after a stop
    and at rest) and clip 14 under the magenta tint the first fit moved it 0.51-0.66 radii up,
    onto the ball, and was refused (``rim_max_shift``), leaving the centre 3.5-5 px low. Only up:
    a fit moving the centre down, towards the ball's shadow, is what the bottom sector is left
    out against (at the far cushion, where the playing area cuts the ball's foreground off at its
    top, the fit moves down onto the shadow: Task2 clip 14 at a low bit rate, 0.51 radii, which
    iterated placed 3 px lower still and made a pot of it). A fit that moved less than this, or
    not up, is used as it is..."""
    rim_refits: int = 2
    """...at most this many times again (a drawn ball's candidate pulled 0.55-0.7 radii below it by
    its shadow and the cue is placed within 0.1 radii after at most two:
    ``tests/vision/test_classic.py``)..."""
    rim_refit_max_shift: float = 0.75
    """...and the last fit, one that moved less than ``rim_refit_shift``, is used where its centre
    lies up to this many radii above the candidate (and within ``rim_max_shift`` sideways), beyond
    ``rim_max_shift``: its rays leave the ball all round, and the candidate still lies well inside
    the ball (a touching ball's centre is two radii off). A fit that did not settle is used only
    within ``rim_max_shift``."""
    rim_cut_min_rays: float = 0.15
    """A ray that leaves the foreground where its averaging square reaches beyond the playing area
    did not see the ball's rim, only the area's edge (the foreground is known on the playing area
    alone), and is not used. A ball by the far cushion rises over the nose line in the picture (the
    camera looks down on it from the other end): on Task2 clip 14 the white resting there had 7
    of its 13 rows on the playing area, its upward rays found the nose line for its rim, too few
    rays were left and the centre stayed where its highlight put it, 1.5-3 px above the ball's.
    Where rays were lost so and fewer than ``rim_min_rays`` found the rim, a circle of the
    expected radius (its size is known; the arcs left, on either side below the nose line, do not
    fix it) is fitted through the rim points found when at least this fraction of the rays found
    them (of ``rim_rays``; 9 of 48 found the white's lower sides there), the outliers left out
    (``rim_outlier``) as for any fit (a ray whose last sample lies beyond the area without
    finding the rim counts as lost so too)..."""
    rim_cut_radius: float = 1.1
    """...of this many expected radii: in the foreground a ball's lower sides lie beyond its rim, by
    the soft shadow it casts about its lower half (and the smoothing's rounding of it), so a
    circle of the expected radius through them alone sits too low (rendered balls 5-45 mm from
    the far cushion: 1.41 px too low on average with 1.0, 0.20 with 1.1; the white on Task2
    clip 3 at 0.3 px from its centre read off its edges)..."""
    rim_cut_max_shift: float = 0.75
    """...and any fit that left rays out so (of a known radius or not) is fitted again from its own
    centre while it moves more than ``rim_refit_shift`` (up to ``rim_refits`` times, whichever way
    it moves), and used where it settled with its centre up to this many radii below the
    candidate (and within ``rim_max_shift`` sideways): the candidate of such a ball is its
    highlight's, on its upper half, and lay 0.35-0.5 radii above its centre (Task2 clips 3 and 14,
    against the labels)."""
    rim_cut_max_residual: float = 0.05
    """...provided its rim points lie this close to it (radii, root mean square; else the candidate
    stays, as before): a ball's lower sides, all that is left of its rim below the nose line, are
    a circle only where they stand out from the cloth; a dark ball's shaded lower half merges with
    its shadow and the cushion's and widens the foreground there. A guard, not a fine sieve: the
    red against the far cushion on Task2 clip 25 reads 0.038 radii (0.066 on a circle of 1.0
    expected radii), the white on clips 3 and 14 0.035-0.041, so the red is fitted too (placed
    1-2 px below its label, where its highlight had placed it within one)."""
    rim_cut_reference_radius_px: float = 6.4
    """The radius (px) at which ``rim_cut_min_rays`` and ``rim_cut_max_residual`` were measured (the
    whites on Task2 clips 3 and 14 at 720 lines). Two things in those guards are fixed in pixels,
    not radii, and take more from a smaller ball: the rim points' own noise (on clean binary discs
    cut by the area's edge their RMS residual is 0.13-0.16 px at the 90th percentile at every radius
    from 3.5 to 13 px, so 0.03 radii at 4.3 px against 0.02 at 6.4), and the averaging square
    (``rim_mask_average_px``) that loses the rays whose rim lies within its reach of the area's
    edge (a band of a fixed width in px, so a larger arc of a smaller rim). Below this radius the
    residual allowed stays at what it is here (``rim_cut_max_residual`` times this, in px), and the
    rays needed are fewer by the rays the band hides at the ball's radius beyond those it hides at
    this one (:func:`_band_rays_px`): Task2 clip 14 at 480 lines, the white against the far cushion (a
    radius of 4.27 px) found its rim on 7 rays (0.146 of 48) with an RMS residual of 0.26 px (0.061
    radii; 0.30 px fitted again from there), refused by both, and was named green on its
    highlight's candidate 2.7 px low for 61 frames. At this radius and above, the guards are as
    they were."""
    rim_neighbour_radius: float = 1.15
    """A ball's rim fit whose rim points disagree (fewer than ``rim_min_rays`` of them lie on its
    first circle: the circle through all of them was used as it was) is fitted again without the
    rays whose rim point lies within this many of another ball's radii of where that ball's own
    first fit placed it (the other balls of the same search): such a ray ran on over the other
    ball's image and left the foreground on that ball's rim, not its own. A white resting 15-25 mm
    in front of a red on a broadcast view overlaps the red's image; its upward rays found the red's
    sides, the circle through them and its own sides sat 0.5-0.7 radii high, and the two read as
    touching (``cue_ball_rests_near_ball`` seed 7). The rays left are fitted as those the playing
    area's edge cuts off are (``rim_cut_min_rays``, ``rim_cut_radius``, ``rim_cut_max_residual``:
    a circle of the expected size, its rim points agreeing), and the new centre is used only where
    it lies farther from each neighbour whose rays were left out than the first fit's (or the
    candidate's, where that fit was refused): the ball drawn off the other's image, not onto it. A
    ball inside a pack, with neighbours on every side, cannot move away from all of them and keeps
    its first fit; the rack's apex red moves off the reds behind it (on the broadcast view from
    0.31 radii off to 0.05). On seed 7 the red's sides lay 0.9-1.1 of its radii from
    where it was placed, the white's own rim beside them 1.05-1.15: those by the meeting of the two
    are left out too, which the fit through the rest does not miss. 0 turns the refit off..."""
    rim_neighbour_min_shift: float = 0.25
    """...and the refit's centre is used only where it lies more than this many radii from the
    first fit's: a smaller move is within what a fit of a ball among others is off by anyway, and
    a ball at rest must not jitter with it (Task2 clip 16 at a low bit rate moved reds of the pack
    by 0.01-0.20 radii on 41 searches, and red-11's track was lost: 94.9 % of its frames found,
    17.5 % with them). The seed-7 white moved 0.64 radii, the rendered rows of
    ``tests/vision/test_rim_neighbour_rendered.py`` 0.44-0.71 (a white 25 mm in front of a red at
    the table's centre, 0.28 radii high, moves 0.22 and stays)."""
    mask_table_markings: bool = True
    """Where the table's painted markings lie (the baulk line and the D's arc), pixels of no shape
    thicker than a line that look like their paint blurred into the cloth are cloth: a line 3-4 px
    wide in the picture outlasts the foreground's median filter (an overhead camera at 960 × 540
    or 1280 × 720), joins the balls on their spots to each other and to the cushions, and a ball
    joined so reads as coming over the cushions (on a rendered clip the yellow on its spot was
    refused, and the brown's rim fit, placing it 5 px off). A ball's own pixels there stay: thicker
    than a line, and coloured off the paint's way (by colour alone, a white ball's rim tinted by
    the cloth beside the green on Task2 clip 6 read as paint)."""
    marking_width_mm: float = 10.0
    """How wide (mm) the markings are looked for: the paint (~5 mm) and the spread a lens and a
    codec give a thin line on either side of it..."""
    marking_blur_px: int = 1
    """...and this many pixels more on either side (a calibration's error, an antialiased edge)."""
    marking_chroma_tolerance: float = 0.03
    """A pixel of a marking whose rgb chromaticity lies within this of the way from the local
    cloth's to a neutral one is the paint blurred into the cloth (the colour balls lie 0.1-0.25
    off it)..."""
    marking_shown_fraction: float = 0.5
    """The lines are taken out only where the foreground holds at least this share of their centre
    lines' pixels (a line the smoothing left; one it removed leaves only balls on it, a few px
    of it each)..."""
    marking_shown_radii: float = 4.0
    """...of a stretch of them longer than this many ball radii (two balls wide: a window of a
    region search around a ball on a line sees little more than the ball)."""
    marking_max_paint_share: float = 0.75
    """...no farther along that way than this share of it (the white ball, neutral, lies at its end;
    its rim blurred into the cloth a sliver along a line)."""
    follower: FollowerConfig = field(default_factory=FollowerConfig)
    """How balls already found are followed while they move (``snooker.vision.follower``)."""

    def __post_init__(self) -> None:
        for name in ("smooth_kernel_px", "small_ball_kernel_px"):
            side = getattr(self, name)
            if side < 1 or side % 2 == 0:
                raise ValueError(f"{name} must be an odd number of px >= 1, got {side}")
        if self.marking_width_mm <= 0 or self.marking_blur_px < 0 or self.marking_chroma_tolerance < 0:
            raise ValueError(
                "marking_width_mm must be > 0 mm, marking_blur_px >= 0 px, marking_chroma_tolerance >= 0"
            )
        if (
            not 0.0 < self.rim_cut_min_rays <= 1.0
            or self.rim_cut_radius <= 0.0
            or self.rim_cut_max_shift < 0.0
            or self.rim_cut_max_residual < 0.0
            or self.rim_cut_reference_radius_px <= 0.0
            or self.rim_neighbour_radius < 0.0
            or self.rim_neighbour_min_shift < 0.0
        ):
            raise ValueError(
                "rim_cut_min_rays must be a fraction in (0, 1], rim_cut_radius > 0 radii, "
                "rim_cut_max_shift, rim_cut_max_residual, rim_neighbour_radius and "
                "rim_neighbour_min_shift >= 0 radii, rim_cut_reference_radius_px > 0 px, got "
                f"{self.rim_cut_min_rays}, {self.rim_cut_radius}, {self.rim_cut_max_shift}, "
                f"{self.rim_cut_max_residual}, {self.rim_neighbour_radius}, {self.rim_neighbour_min_shift}, "
                f"{self.rim_cut_reference_radius_px}"
            )
        if self.rim_refits < 0 or self.rim_refit_shift <= 0 or self.rim_refit_max_shift < self.rim_max_shift:
            raise ValueError(
                "rim_refits must be >= 0, rim_refit_shift > 0 radii and rim_refit_max_shift >= "
                f"rim_max_shift, got {self.rim_refits}, {self.rim_refit_shift}, {self.rim_refit_max_shift}"
            )
        if (
            not 0.0 <= self.dark_blob_sure_confidence <= 1.0
            or self.dark_blob_found_radii < 0.0
            or self.dark_blob_missing_frames < 0
        ):
            raise ValueError(
                "dark_blob_sure_confidence must lie in [0, 1], dark_blob_found_radii be >= 0 radii and "
                "dark_blob_missing_frames >= 0 frames, got "
                f"{self.dark_blob_sure_confidence}, {self.dark_blob_found_radii}, "
                f"{self.dark_blob_missing_frames}"
            )
        if (
            self.jaws_beyond_radii < 0.0
            or self.jaws_change_levels < 0.0
            or self.jaws_kept_radii < 0.0
            or self.jaws_min_disc_share < 0.0
        ):
            raise ValueError(
                "jaws_beyond_radii and jaws_kept_radii must be >= 0 radii, jaws_change_levels >= 0 "
                f"levels, jaws_min_disc_share >= 0, got {self.jaws_beyond_radii}, {self.jaws_kept_radii}, "
                f"{self.jaws_change_levels}, {self.jaws_min_disc_share}"
            )
        if self.highlight_reference_cloth_lightness <= 0:
            raise ValueError(
                "highlight_reference_cloth_lightness must be > 0, got "
                f"{self.highlight_reference_cloth_lightness}"
            )


class ClassicDetector:
    """Callable classical detector with a fixed configuration (see :func:`detect_balls`).

    It keeps the table geometry of the last view it saw (crop, playing area, expected radii), so
    the frames of a video with one calibration pay for it once, and what its last detection left
    (:class:`ClassicScene`), so :meth:`redetect` can look again at changed regions only.
    """

    depends_only_on_image = True
    """The detections are a function of the image and the view alone (so an unchanged picture may
    reuse them: see ``snooker.vision.gating``)."""

    def __init__(self, config: ClassicConfig | None = None) -> None:
        self.config = config or ClassicConfig()
        compile_kernels()
        self._cached: tuple[CalibratedView, tuple[int, ...], TableGeometry | None] | None = None
        self._cached_jaws: tuple[CalibratedView, tuple[int, ...], TableGeometry | None] | None = None
        self.scene: ClassicScene | None = None
        self._jaws: JawsReference | None = None

    def geometry(self, view: CalibratedView, shape: tuple[int, ...]) -> TableGeometry | None:
        """The table geometry for frames of ``shape`` seen through ``view`` (computed once per view)."""
        shape = tuple(shape[:2])
        if self._cached is None or self._cached[0] is not view or self._cached[1] != shape:
            self._cached = (view, shape, table_geometry(view, shape, self.config))
        return self._cached[2]

    def jaws_geometry(self, view: CalibratedView, shape: tuple[int, ...]) -> TableGeometry | None:
        """The table geometry whose crop holds the pockets' jaws beyond the playing area too
        (``table_geometry(..., with_jaws=True)``, computed once per view); None where no pocket's
        jaws show beyond it (``ClassicConfig.jaws_beyond_radii``) or the table is not in view.
        Detections use it only on frames whose jaws changed (:class:`JawsReference`): its wider
        crop takes other cloth cells, so on every other frame the crop of :meth:`geometry` is
        searched, its detections those of a detector without the jaws search."""
        shape = tuple(shape[:2])
        if self._cached_jaws is None or self._cached_jaws[0] is not view or self._cached_jaws[1] != shape:
            wide = table_geometry(view, shape, self.config, with_jaws=True)
            self._cached_jaws = (view, shape, wide if wide is not None and wide.jaws else None)
        return self._cached_jaws[2]

    def _jaws_reference(self, frame_bgr: np.ndarray, view: CalibratedView) -> JawsReference | None:
        """The jaws' reference of ``view`` (begun from ``frame_bgr`` when the view is new); None
        where it has no jaws beyond the playing area."""
        wide = self.jaws_geometry(view, frame_bgr.shape)
        if wide is None:
            self._jaws = None
        elif self._jaws is None or self._jaws.geometry is not wide:
            self._jaws = JawsReference.of(frame_bgr, wide)
        return self._jaws

    def __call__(self, frame_bgr: np.ndarray, view: CalibratedView) -> BallDetections:
        geometry = self.geometry(view, frame_bgr.shape)
        if geometry is None:
            self.scene = None
            return BallDetections.empty()
        jaws = self._jaws_reference(frame_bgr, view)
        look = {} if jaws is None else jaws.look(frame_bgr, self.config)
        searched = None if jaws is None else jaws.searched(look, self.config)
        if searched is None:
            self.scene = detect_scene(frame_bgr, view, self.config, geometry)
        else:
            self.scene = detect_scene(frame_bgr, view, self.config, jaws.geometry, searched)
        if jaws is not None:
            jaws.refresh(frame_bgr, self.scene, self.config, look)
        return self.scene.detections

    def redetect(
        self,
        frame_bgr: np.ndarray,
        view: CalibratedView,
        windows: Sequence[tuple[int, int, int, int]],
        owner: Callable[[np.ndarray], np.ndarray],
        missing: MissingBalls | None = None,
    ) -> BallDetections:
        """Detect again only where the picture changed since the last detection; elsewhere the
        balls found before stay. All candidates are then named together, as in a full detection.

        ``windows``: (x0, y0, x1, y1) frame px, each around one part (its core) of the changed
        region with room around it; ``owner(xy_px)``: (n,) int, for frame points (n, 2) the index
        of the window whose core holds each, -1 where nothing changed; ``missing``: the balls the
        caller has lost and not found since (None: none), which tell where a dark ball blurred in
        flight is looked for (``dark_blobs_where_missing``). Without a previous detection of this
        view and frame size it detects in full; so too where the windows find the jaws beyond the
        playing area changed (:class:`JawsReference`) and the last detection's crop does not hold
        them (see :meth:`jaws_geometry`).
        """
        scene = self.scene
        if scene is None or scene.view is not view or scene.shape != tuple(frame_bgr.shape[:2]):
            return self(frame_bgr, view)
        jaws = self._jaws_reference(frame_bgr, view)
        look = {} if jaws is None else jaws.look(frame_bgr, self.config, windows)
        searched = None if jaws is None else jaws.searched(look, self.config)
        if searched is not None and scene.geometry is not jaws.geometry:
            return self(frame_bgr, view)
        self.scene = redetect_scene(frame_bgr, scene, windows, owner, self.config, missing, searched)
        if jaws is not None:
            jaws.refresh(frame_bgr, self.scene, self.config, look, windows)
        return self.scene.detections

    def follow(
        self, frame_bgr: np.ndarray, view: CalibratedView, rows: np.ndarray, expected_px: np.ndarray
    ) -> BallDetections | None:
        """The last detections with the balls ``rows`` (indices into them) followed to where
        ``frame_bgr`` shows them, each looked for around ``expected_px`` (k, 2) frame px, keeping
        their names; None — nothing changed — when the follower is unsure of any (the caller then
        detects again: see ``snooker.vision.follower``)."""
        # Imported here: the follower is built on this module's steps.
        from snooker.vision.follower import follow_scene

        scene = self.scene
        if scene is None or scene.view is not view or scene.shape != tuple(frame_bgr.shape[:2]):
            return None
        followed = follow_scene(frame_bgr, scene, rows, expected_px, self.config, self.config.follower)
        return None if followed is None else followed.detections


@functools.cache
def compile_kernels() -> None:
    """Compile the detector's numba kernels (or load them from numba's on-disk cache) for the
    array layouts a detection passes them, once per process, so that the first frame of a video
    or of a live source does not pay for it (measured: 8 s the first time on a machine, 0.3 s
    from the cache)."""
    config = ClassicConfig()
    shade = np.full((8, 10, 3), 1.0 / 3.0, np.float32)
    brightness = np.full((8, 10), 300.0, np.float32)
    image = np.full((8, 10, 3), 100, np.uint8)
    for part in (slice(None), slice(1, 9)):
        # a mosaic (contiguous), the crop of a frame and a follower's window (views)
        window = ClothEstimate(shade[:, part], brightness[:, part], 0.4)
        not_cloth(image[:, part], window, config.cloth, config.ball_body_darker_ratio)
        not_cloth(image[:, part], ClothEstimate(shade, brightness, 0.4), config.cloth)
    boxes, tops = np.array([[1, 0, 9, 3], [0, 2, 8, 6]]), np.array([0, 4])  # rows 0-2 and 4-7
    not_cloth_in_windows(image, ClothEstimate(shade, brightness, 0.4), boxes, tops, config.cloth, 0.8)
    mask = np.zeros((8, 10), bool)
    centres, radii = np.array([[4.0, 4.0]]), np.array([2.0])
    _coverage(mask, centres, radii)
    _surround(mask, mask, centres, radii)  # a highlight's surround, beyond the area above it
    for part in (mask, mask[:, 1:9]):  # a mosaic (contiguous), the crop of a frame (a view)
        _loose_share(part, part, part, centres, radii, _disc_offsets(), 3)
    _ring_samples(mask, centres, radii, config.ring_samples)
    _refine(centres, mask, brightness, 2.0, config)
    _refine(centres, mask[:, 1:9], brightness, 2.0, config)  # a follower's window (a view)
    _centre_on_rim(centres, mask, radii, config, mask)
    labels, areas, _ = _regions_touching(mask, mask)
    _regions_at(labels, areas > 0, _cut_regions(labels, len(areas), boxes, tops, 8, 10), centres)
    cloth_grid(image, mask, config.cloth)
    area = mask[1:7, 1:9]
    crop = TableGeometry(1, 1, 9, 7, area, area, area, brightness, 2.0, 2.0)
    _estimate_cloth(image[1:7, 1:9], crop, config)  # the crop of a frame (a view)
    whole = TableGeometry(0, 0, 10, 8, mask, mask, mask, brightness, 2.0, 2.0)
    cloth = _cloth_at(ClothEstimate(shade, brightness, 0.4))
    _plausible(
        centres,
        np.ones(1, bool),
        mask,
        mask,
        whole,
        centres,
        np.zeros(1, bool),
        config,
        np.zeros(1, bool),
        image,
        cloth,
    )
    lightness = lab_lightness(image)
    lab_lightness(image[:, 1:9])  # the crop of a frame, a follower's window
    warm_colour_conversions()
    class_costs(np.zeros((1, len(FEATURE_NAMES))), config.colour)
    fit_transform(np.full((1, len(FEATURE_NAMES)), 100.0), np.array(["red"]), config.colour)
    for offsets in (_round_offsets(config.ring_samples, (config.bodiless_ring,)), np.zeros((1, 2))):
        _mask_at(lightness, centres, radii, offsets)  # the shadow test's ring and square
    _highlight_pixels(lightness, lightness, mask, 40.0, 150.0)
    flags = np.ones(1, bool)
    for part in (brightness, brightness[:, 1:9]):  # a mosaic (contiguous), a follower's window (a view)
        _spots_merged(centres, radii, radii, flags, ~flags, flags, ~flags, part, 1.5, 0.3)  # highlights
    _peaks_reach(lightness, centres, radii, np.ones(1, bool), 1.0, 100.0)
    _kept_in_order(np.ones(1, bool), np.ones((1, 1), bool))
    _cloth_lightness(lightness, mask, mask, config)
    depth = np.ones((8, 10), np.float32)
    local_peaks(_blob_depth(depth, depth, mask, brightness, np.float32(0.65)), 3, POSITIVE)
    mask[2, 3] = True
    _sparse_regions(mask)
    _areas_up_to(mask, np.array([3]), np.array([2]), np.array([4.0]))
    chroma, limits = np.full(3, 1.0 / 3.0, np.float32), (np.float32(40.0), np.float32(0.01))
    for part in (image, image[:, 1:9]):  # a mosaic (contiguous), the crop of a frame (a view)
        _foreign_pixels(part, lightness, mask, 3, 3, 1, 2, 1, chroma, *limits, np.float32(12.0))


@dataclass(frozen=True)
class TableGeometry:
    """Where the detector works in frames of one size seen through one view.

    ``x0, y0, x1, y1``: the crop around the playing area (frame px); ``area``: (h, w) bool, the
    playing area inside the crop; ``inner``: (h, w) bool, the playing area less a band of
    ``ring_edge_px`` along its edge; ``band``: (h, w) bool, the band of ``boundary_band_px`` inside
    the playing area's edge (a region reaching it comes over the cushions); ``radius``: (h, w)
    float32, the expected ball radius (px) at each crop pixel; ``typical_radius``: its median over
    the playing area (px); ``peak_radius``: its median over the whole crop (px; sizes the window
    of the blob search); ``markings``: (h, w) uint8, where the table's painted markings lie
    (``MARKING_BAND``) and their centre lines (``MARKING_LINE``), else 0 (None: not looked at; see
    ``ClassicConfig.mask_table_markings``), ``marking_px`` the band's width (px); ``jaws``: the
    pockets' jaws beyond the playing area where a ball resting there shows (one :class:`JawsPatch`
    per pocket that has any; see ``ClassicConfig.jaws_beyond_radii``; only in the wider crop of
    :meth:`ClassicDetector.jaws_geometry`, else none), searched only where they changed
    (:class:`JawsReference`).
    """

    x0: int
    y0: int
    x1: int
    y1: int
    area: np.ndarray
    inner: np.ndarray
    band: np.ndarray
    radius: np.ndarray
    typical_radius: float
    peak_radius: float
    markings: np.ndarray | None = None
    marking_px: int = 0
    jaws: tuple[JawsPatch, ...] = ()

    def window(self, x0: int, y0: int, x1: int, y1: int) -> TableGeometry:
        """The part of this geometry inside crop px [x0, x1) × [y0, y1), as a geometry of its own
        (same typical radii, so every step behaves as on the whole crop)."""
        rows, cols = slice(y0, y1), slice(x0, x1)
        return replace(
            self,
            x0=self.x0 + x0,
            y0=self.y0 + y0,
            x1=self.x0 + x1,
            y1=self.y0 + y1,
            area=self.area[rows, cols],
            inner=self.inner[rows, cols],
            band=self.band[rows, cols],
            radius=self.radius[rows, cols],
            markings=None if self.markings is None else self.markings[rows, cols],
            jaws=(),
        )


@dataclass
class ClassicScene:
    """What one detection of a view left behind, for detecting again where the picture changed.

    ``view``, ``shape`` (H, W) and ``geometry`` it was made for; ``cloth``: the cloth model of the
    crop (of the last full detection, brought up to date in the windows searched since: see
    ``redetect_fresh_cloth``; ``cloth_cells``: its cells, None where the crop's sides are not
    multiples of ``cloth_scale``); ``foreground``: (h, w) uint8 0/1 of the
    crop, updated where regions were detected again; ``centres``: (n, 2) crop px of every plausible
    candidate, ``centres_mm`` (n, 2) on the table, ``highlight`` (n,) whether it was found by its
    highlight, ``intruding`` (n,) whether it lies in a region coming over the cushions, ``features``
    (n, 7) their colour features; ``detections``: the named balls, and
    ``transform`` the colour transform their naming settled on (None before the first);
    ``searched_transform`` the one the last full detection's naming settled on, searched from every
    exposure (None before the first).
    """

    view: CalibratedView
    shape: tuple[int, ...]
    geometry: TableGeometry
    cloth: ClothEstimate
    foreground: np.ndarray
    centres: np.ndarray
    centres_mm: np.ndarray
    highlight: np.ndarray
    intruding: np.ndarray
    features: np.ndarray
    detections: BallDetections
    transform: FrameTransform | None = None
    cloth_cells: ClothCells | None = None
    searched_transform: FrameTransform | None = None
    markings_shown: bool = False
    """Whether the full detection's foreground held the table's painted lines
    (:func:`_shows_marking_lines`): region searches and the follower take their paint out only
    then, as the full detection did (a window sees too little of the lines to judge it, and one
    that took the paint out where the full detection had not moved a ball on a line off its
    place: the green touched by the white at 960 × 540, 3.6 px)."""
    dark: np.ndarray | None = None
    """(n,) whether each candidate was found by its darkness alone (``ClassicConfig.dark_blobs``):
    such a candidate is an unnamed place, never named (None: none was)."""

    def dark_found(self) -> np.ndarray:
        """(n,) bool: ``dark``, all False where it is None."""
        return np.zeros(len(self.centres), dtype=bool) if self.dark is None else self.dark


@dataclass(frozen=True)
class _Found:
    """Plausible candidates of one image region: centres (n, 2) px of that region, their table
    positions (n, 2) mm, whether each was found by its highlight (n,), whether each lies in a
    region coming over the cushions (n,), colour features (n, 7) and whether each was found by
    its darkness alone (n,; see ``ClassicConfig.dark_blobs``)."""

    centres: np.ndarray
    centres_mm: np.ndarray
    highlight: np.ndarray
    intruding: np.ndarray
    features: np.ndarray
    dark: np.ndarray

    def select(self, keep: np.ndarray, shift: np.ndarray | None = None) -> _Found:
        centres = self.centres[keep] if shift is None else self.centres[keep] + shift
        return _Found(
            centres,
            self.centres_mm[keep],
            self.highlight[keep],
            self.intruding[keep],
            self.features[keep],
            self.dark[keep],
        )


def detect_balls(
    frame_bgr: np.ndarray,
    view: CalibratedView,
    config: ClassicConfig | None = None,
    geometry: TableGeometry | None = None,
) -> BallDetections:
    """Find and name the balls in ``frame_bgr`` (H, W, 3) uint8 BGR of the table ``view`` sees.

    ``geometry`` (from :func:`table_geometry` for this view and frame size) saves recomputing it.
    """
    config = config or ClassicConfig()
    geometry = geometry or table_geometry(view, frame_bgr.shape, config)
    if geometry is None:
        return BallDetections.empty()
    return detect_scene(frame_bgr, view, config, geometry).detections


def detect_scene(
    frame_bgr: np.ndarray,
    view: CalibratedView,
    config: ClassicConfig,
    geometry: TableGeometry,
    searched: TableGeometry | None = None,
) -> ClassicScene:
    """A full detection over the whole playing area, with what it leaves for :func:`redetect_scene`;
    ``searched``: ``geometry`` with the playing area of this frame, the jaws beyond the cloth's
    outline where they changed (:meth:`JawsReference.searched`; None: ``geometry``, the jaws not
    searched)."""
    g = geometry
    image = frame_bgr[g.y0 : g.y1, g.x0 : g.x1]
    cloth, cells = _estimate_cloth(image, g, config)
    searched = g if searched is None else searched
    different, darker = not_cloth(image, cloth, config.cloth, config.ball_body_darker_ratio)
    foreground, body, shown, unpainted = _cloth_foreground(
        image, different, darker, searched, _cloth_at(cloth), config
    )
    offset = np.array([g.x0, g.y0], dtype=float)
    found = _find(
        image,
        searched,
        view,
        _cloth_at(cloth),
        foreground,
        body,
        config,
        lambda points: points + offset,
        loose=_loose_body(unpainted, darker, searched, config),
    )
    return _named(
        ClassicScene(
            view,
            tuple(frame_bgr.shape[:2]),
            g,
            cloth,
            foreground.astype(np.uint8),
            found.centres,
            found.centres_mm,
            found.highlight,
            found.intruding,
            found.features,
            BallDetections.empty(),
            cloth_cells=cells,
            markings_shown=shown,
            dark=found.dark,
        ),
        config,
    )


def redetect_scene(
    frame_bgr: np.ndarray,
    scene: ClassicScene,
    windows: Sequence[tuple[int, int, int, int]],
    owner: Callable[[np.ndarray], np.ndarray],
    config: ClassicConfig,
    missing: MissingBalls | None = None,
    searched: TableGeometry | None = None,
) -> ClassicScene:
    """``scene`` updated from ``frame_bgr`` inside ``windows`` (frame px) only: candidates whose
    place changed (``owner`` >= 0) are found again, each by the window owning its place; the others
    stay (see :meth:`ClassicDetector.redetect`). The windows are stacked into one image and
    searched in one pass (see :class:`_Mosaic`); dark blobs only where a ball may be missing
    (``missing``, see ``dark_blobs_where_missing``); ``searched``: the scene's geometry with the
    playing area of this frame, the jaws beyond the cloth's outline where they changed
    (:meth:`JawsReference.searched`; None: the scene's, the jaws not searched)."""
    g = scene.geometry
    offset = np.array([g.x0, g.y0], dtype=float)
    before = _Found(
        scene.centres, scene.centres_mm, scene.highlight, scene.intruding, scene.features, scene.dark_found()
    )
    old = before.select(owner(before.centres + offset) < 0 if len(before.centres) else np.zeros(0, bool))
    if config.redetect_fresh_cloth:
        _refresh_cloth(frame_bgr[g.y0 : g.y1, g.x0 : g.x1], scene, windows, config)
    mosaic = _Mosaic.of(frame_bgr, scene, windows, config, searched)
    fresh = _concat([])
    if mosaic is not None:
        foreground, body, loose = mosaic.cloth_masks(config, scene.markings_shown)
        mosaic.paste(foreground, scene.foreground, smooth_kernel_px(g.typical_radius, config) // 2 + 1)
        intruders = _MosaicIntruders(_CropRegions(scene, config), foreground, mosaic)

        def to_frame(points: np.ndarray) -> np.ndarray:
            return mosaic.to_crop(points) + offset

        def owned(points: np.ndarray) -> np.ndarray:
            return owner(to_frame(points)) == mosaic.index[mosaic.window_of(points)]

        found = _find(
            mosaic.image,
            mosaic.geometry,
            scene.view,
            mosaic.cloth_at,
            foreground,
            body,
            config,
            to_frame,
            intruders=intruders,
            apart=mosaic.apart,
            wanted=owned,
            loose=loose,
            dark_search=_dark_search(scene, windows, owner, missing, mosaic, to_frame, config),
        )
        fresh = replace(found, centres=mosaic.to_crop(found.centres))
    if len(fresh.centres) == 0 and len(old.centres) == len(before.centres):
        return scene  # no candidate was there nor is now: the balls and their names stand
    keep_old, keep_new = _merge(old, fresh, config)
    merged = _concat([old.select(keep_old), fresh.select(keep_new)])
    scene.centres, scene.centres_mm = merged.centres, merged.centres_mm
    scene.highlight, scene.intruding, scene.features = merged.highlight, merged.intruding, merged.features
    scene.dark = merged.dark
    return _named(scene, config, _warm_starts(scene, config))


def _warm_starts(scene: ClassicScene, config: ClassicConfig) -> tuple[FrameTransform, ...] | None:
    """The colour transforms a region search's naming starts from (None: every exposure; see
    ``relabel_from_last_transform`` and ``relabel_from_searched_transform``)."""
    if scene.transform is None or not config.relabel_from_last_transform:
        return None
    searched = scene.searched_transform
    if searched is None or searched == scene.transform or not config.relabel_from_searched_transform:
        return (scene.transform,)
    return (scene.transform, searched)


@dataclass(frozen=True)
class _Mosaic:
    """Windows of the crop stacked one under another (``_MOSAIC_GAP_PX`` empty rows between), so
    that one pass of the detector searches them all: the stacked ``image`` with its ``geometry``
    (playing area, radii… of each window's place), and the crop's ``cloth`` model (compared with
    each window where it lies: :meth:`cloth_masks`, :meth:`cloth_at`); per window its crop box
    ``boxes`` (k, 4) (x0, y0, x1, y1), its first row ``tops`` (k,) in the mosaic and its ``index``
    (k,) among the windows asked for; ``crop_shape`` (h, w) of the crop. Made once for the
    points' many conversions: per window the shift (k, 2) from mosaic to crop px ``shifts``, the
    offset (k, 2) mm ``apart_mm`` that :meth:`apart` adds, and the first rows of all windows but
    the first ``later_tops`` (k - 1,) that :meth:`window_of` looks rows up in."""

    image: np.ndarray
    geometry: TableGeometry
    cloth: ClothEstimate
    boxes: np.ndarray
    tops: np.ndarray
    index: np.ndarray
    crop_shape: tuple[int, int]
    shifts: np.ndarray
    apart_mm: np.ndarray
    later_tops: np.ndarray

    @classmethod
    def of(
        cls,
        frame_bgr: np.ndarray,
        scene: ClassicScene,
        windows: Sequence[tuple[int, int, int, int]],
        config: ClassicConfig,
        geometry: TableGeometry | None = None,
    ) -> _Mosaic | None:
        """The mosaic of ``windows`` (frame px, clipped to the crop); None when none is left.
        ``geometry``: the scene's, with the playing area of this frame (see
        :meth:`JawsReference.searched`; None: the scene's as it is)."""
        g = scene.geometry if geometry is None else geometry
        crop_h, crop_w = g.area.shape
        minimum = 2 * (smooth_kernel_px(g.typical_radius, config) // 2 + 1)
        boxes, index = [], []
        for k, (fx0, fy0, fx1, fy1) in enumerate(windows):
            x0, y0 = max(0, fx0 - g.x0), max(0, fy0 - g.y0)
            x1, y1 = min(crop_w, fx1 - g.x0), min(crop_h, fy1 - g.y0)
            if x1 - x0 > minimum and y1 - y0 > minimum:
                boxes.append((x0, y0, x1, y1))
                index.append(k)
        if not boxes:
            return None
        box_array = np.array(boxes, dtype=int)
        heights = box_array[:, 3] - box_array[:, 1]
        tops = np.concatenate([[0], np.cumsum(heights + _MOSAIC_GAP_PX)[:-1]])
        h, w = int(tops[-1] + heights[-1]), int(np.max(box_array[:, 2] - box_array[:, 0]))
        image = np.zeros((h, w, 3), np.uint8)
        area, inner, band = (np.zeros((h, w), bool) for _ in range(3))
        radius = np.full((h, w), g.typical_radius, np.float32)
        markings = None if g.markings is None else np.zeros((h, w), np.uint8)
        stacked = [(area, g.area), (inner, g.inner), (band, g.band), (radius, g.radius)]
        if markings is not None:
            stacked.append((markings, g.markings))
        for (x0, y0, x1, y1), top in zip(boxes, tops, strict=True):
            rows, cols = slice(top, top + y1 - y0), slice(0, x1 - x0)
            image[rows, cols] = frame_bgr[g.y0 + y0 : g.y0 + y1, g.x0 + x0 : g.x0 + x1]
            for target, source in stacked:
                target[rows, cols] = source[y0:y1, x0:x1]
        geometry = replace(
            g, x0=0, y0=0, x1=w, y1=h, area=area, inner=inner, band=band, radius=radius, markings=markings
        )
        shifts = np.stack([box_array[:, 0], box_array[:, 1] - tops], axis=1)
        apart_mm = np.outer(np.arange(len(box_array)), [_WINDOWS_APART_MM, 0.0])
        return cls(
            image,
            geometry,
            scene.cloth,
            box_array,
            tops,
            np.array(index),
            (crop_h, crop_w),
            shifts,
            apart_mm,
            tops[1:],
        )

    def cloth_masks(
        self, config: ClassicConfig, markings_shown: bool
    ) -> tuple[np.ndarray, np.ndarray, Callable[[np.ndarray, np.ndarray], np.ndarray]]:
        """The foreground and ball-body masks of the mosaic (see :func:`_cloth_masks`), each window
        compared with the crop's cloth where it lies (no copy of the cloth model is made); the
        painted lines' paint taken out where the full detection found them shown
        (``markings_shown``: see ``ClassicScene.markings_shown``); and the loose body's share of
        discs (:func:`_loose_body`, of the same masks, the paint taken out: a painted line is no
        ball's body)."""
        different, darker = not_cloth_in_windows(
            self.image, self.cloth, self.boxes, self.tops, config.cloth, config.ball_body_darker_ratio
        )
        if markings_shown:
            different = _without_marking_paint(
                self.image, different, darker, self.geometry, self.cloth_at, config
            )
        loose = _loose_body(different, darker, self.geometry, config)
        side = smooth_kernel_px(self.geometry.typical_radius, config)
        return *_foreground_and_body(different, darker, self.geometry.area, side), loose

    def cloth_at(self, ix: np.ndarray, iy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The crop cloth's chromaticity (n, 3) and brightness (n,) at mosaic pixels (``ix``,
        ``iy``) (n,) (none between and beside the windows: zero chromaticity, brightness 1)."""
        k = self.window_of(np.stack([ix, iy], axis=1).astype(float))
        x, y = ix + self.boxes[k, 0], iy - self.tops[k] + self.boxes[k, 1]
        inside = (x < self.boxes[k, 2]) & (y < self.boxes[k, 3])
        x, y = np.where(inside, x, 0), np.where(inside, y, 0)
        chroma = np.where(inside[:, None], self.cloth.chromaticity[y, x], np.float32(0.0))
        return chroma, np.where(inside, self.cloth.brightness[y, x], np.float32(1.0))

    def window_of(self, points: np.ndarray) -> np.ndarray:
        """(n,) which window each mosaic point (n, 2) lies in: the last whose first row is at or
        above it (the first for points above the mosaic): how many later windows start at or
        above it."""
        return self.later_tops.searchsorted(points[:, 1], side="right")

    def to_crop(self, points: np.ndarray) -> np.ndarray:
        """Mosaic points (n, 2) as crop points."""
        return points + self.shifts[self.window_of(points)]

    def apart(self, points_mm: np.ndarray, points: np.ndarray) -> np.ndarray:
        """Table positions of mosaic points, set ``_WINDOWS_APART_MM`` apart per window, so that
        keeping candidates apart never compares two windows (where windows overlap, each must
        find its own balls, as it would alone)."""
        return points_mm + self.apart_mm[self.window_of(points)]

    def paste(self, mask: np.ndarray, crop_mask: np.ndarray, inset: int) -> None:
        """Copy each window's part of ``mask`` (mosaic) into ``crop_mask`` (the crop), less the
        ``inset`` px along window edges inside the crop (where the window's filters saw no
        further; where windows overlap, each gives its interior)."""
        crop_h, crop_w = self.crop_shape
        for (x0, y0, x1, y1), top in zip(self.boxes, self.tops, strict=True):
            t, left = (inset if y0 > 0 else 0), (inset if x0 > 0 else 0)
            b, r = (inset if y1 < crop_h else 0), (inset if x1 < crop_w else 0)
            crop_mask[y0 + t : y1 - b, x0 + left : x1 - r] = mask[
                top + t : top + y1 - y0 - b, left : x1 - x0 - r
            ]


_MOSAIC_GAP_PX = 4
"""Empty rows between two windows of a mosaic (no region, filter or search crosses them)."""
_WINDOWS_APART_MM = 1.0e6
"""How far apart (mm) the windows of a mosaic are put when candidates are kept apart."""


def _concat(parts: list[_Found]) -> _Found:
    if not parts:
        empty = np.zeros((0, 2))
        return _Found(
            empty,
            empty,
            np.zeros(0, bool),
            np.zeros(0, bool),
            np.zeros((0, len(FEATURE_NAMES))),
            np.zeros(0, bool),
        )
    return _Found(
        np.concatenate([p.centres for p in parts]).reshape(-1, 2),
        np.concatenate([p.centres_mm for p in parts]).reshape(-1, 2),
        np.concatenate([p.highlight for p in parts]).astype(bool),
        np.concatenate([p.intruding for p in parts]).astype(bool),
        np.concatenate([p.features for p in parts]).reshape(-1, len(FEATURE_NAMES)),
        np.concatenate([p.dark for p in parts]).astype(bool),
    )


def _merge(old: _Found, new: _Found, config: ClassicConfig) -> tuple[np.ndarray, np.ndarray]:
    """Which candidates kept from before and found anew stay together: two closer than the full
    detection's separations (``min_separation_mm`` between highlights, ``blob_separation_mm``
    otherwise) are one ball — the one with a highlight, else the new one."""
    if len(old.centres) == 0 or len(new.centres) == 0:
        return np.ones(len(old.centres), bool), np.ones(len(new.centres), bool)
    gap = np.linalg.norm(old.centres_mm[:, None] - new.centres_mm[None], axis=2)
    both = old.highlight[:, None] & new.highlight[None]
    conflict = gap < np.where(both, config.min_separation_mm, config.blob_separation_mm)
    old_wins = conflict & old.highlight[:, None] & ~new.highlight[None]
    keep_new = ~old_wins.any(axis=0)
    keep_old = ~(conflict & keep_new[None] & ~old_wins).any(axis=1)
    return keep_old, keep_new


def _find(
    image: np.ndarray,
    g: TableGeometry,
    view: CalibratedView,
    cloth_at: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]],
    foreground: np.ndarray,
    body: np.ndarray,
    config: ClassicConfig,
    to_frame: Callable[[np.ndarray], np.ndarray],
    intruders: Callable[[np.ndarray], np.ndarray] | None = None,
    apart: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None,
    wanted: Callable[[np.ndarray], np.ndarray] | None = None,
    loose: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None,
    dark_search: Callable[[np.ndarray], Callable[[np.ndarray], np.ndarray] | None] | None = None,
) -> _Found:
    """The plausible candidates in ``image`` (the crop, or a mosaic of windows of it, that ``g``
    describes; ``to_frame`` maps its points to the frame) and their colour features
    (``cloth_at(ix, iy)``: the cloth model's chromaticity and brightness at pixels of ``image``).

    ``intruders(centres)`` says which lie in a region coming over the cushions (default: judged on
    ``foreground`` alone); ``apart(points_mm, points)`` gives the positions on which candidates are
    kept apart (default: the table positions); ``wanted(centres)`` which candidates are needed
    (default: all), so no features are measured for the others; ``loose(centres, radii)`` the
    loose body's share of discs (see ``highlight_surround_loose_body``; None: not judged);
    ``dark_search(kept)``, given the plausible candidates found otherwise (px of ``image``), says
    where dark blobs (:func:`_dark_blobs`) are looked for: a filter of their places ((n, 2) px →
    (n,) bool), or None where nowhere (the search is skipped); default everywhere.
    """

    def on_table(points: np.ndarray) -> np.ndarray:
        return view.image_to_table(to_frame(points)) if len(points) else np.zeros((0, 2))

    lightness = lab_lightness(image)
    tophat = _tophat(lightness, g.typical_radius)
    if intruders is None:
        intruders = _intruders_of(foreground, g.band, g.typical_radius, config)
    spots, blobs, spots_mm, blobs_mm, spot_bodiless = _candidates(
        lightness, tophat, foreground, body, g, on_table, apart, config, intruders, loose
    )
    own = _own_colours(image, lightness, tophat, foreground, spots, spot_bodiless, g, config)
    blobs, blobs_mm, holding = _with_foreign_blobs(
        image,
        lightness,
        foreground,
        g,
        spots,
        spots_mm,
        own,
        blobs,
        blobs_mm,
        on_table,
        apart,
        config,
    )
    own[~holding] = np.nan  # read whole: no other ball's pixels over it
    found = np.concatenate([spots, blobs]).reshape(-1, 2)
    found_mm = np.concatenate([spots_mm, blobs_mm]).reshape(-1, 2)
    has_highlight = np.arange(len(found)) < len(spots)
    bodiless = np.concatenate([spot_bodiless, np.zeros(len(blobs), dtype=bool)])
    intruding = intruders(found)
    keep = _kept(
        image,
        lightness,
        found,
        has_highlight,
        foreground,
        body,
        g,
        found_mm,
        intruding,
        config,
        bodiless,
        cloth_at,
    )
    searched = (
        (lambda points: np.ones(len(points), dtype=bool)) if dark_search is None else dark_search(found[keep])
    )
    dark, dark_mm = np.zeros((0, 2)), np.zeros((0, 2))
    if searched is not None:
        dark, dark_mm = _dark_blobs(body, g, found, found_mm, on_table, apart, config)
        inside = searched(dark)
        dark, dark_mm = dark[inside], dark_mm[inside]
    centres = np.concatenate([found, dark])
    own = np.concatenate([own, np.full((len(centres) - len(own), own.shape[1]), np.nan)])
    has_highlight = np.concatenate([has_highlight, np.zeros(len(dark), dtype=bool)])
    darkness = np.arange(len(centres)) >= len(found)
    bodiless = np.concatenate([bodiless, np.zeros(len(dark), dtype=bool)])
    dark_found = darkness.copy()
    dark_intruding, dark_keep = np.zeros(0, dtype=bool), np.zeros(0, dtype=bool)
    if len(dark):
        dark_intruding = intruders(dark)
        none = np.zeros(len(dark), dtype=bool)
        dark_keep = _kept(
            image,
            lightness,
            dark,
            none,
            foreground,
            body,
            g,
            dark_mm,
            dark_intruding,
            config,
            none,
            cloth_at,
            ~none,
        )
    intruding = np.concatenate([intruding, dark_intruding])
    keep = np.concatenate([keep, dark_keep])
    centres, bodiless, darkness, own = centres[keep], bodiless[keep], darkness[keep], own[keep]
    radii = _radius_at(g.radius, centres)
    # a bodiless ball has no rim against the cloth to fit: its highlight places it; a ball found
    # by its darkness alone stands against the cloth by its body
    placed = centres.copy()
    for rows, mask in ((~bodiless & ~darkness, foreground), (darkness, body)):
        placed[rows] = _centre_on_rim(centres[rows], mask, radii[rows], config, g.area)
    if wanted is not None and len(placed):
        # judged where the ball is placed, like the candidates kept from before (a ball whose
        # candidate lay outside the region but whose centre lies inside would be lost by both)
        mine = wanted(placed)
        keep[keep] = mine
        centres, placed, radii, own = centres[mine], placed[mine], radii[mine], own[mine]
    if len(centres) == 0:
        return _concat([])
    read_at = _core_centres(centres, placed, radii, config.colour.core_radius)
    features = core_features(
        image,
        tophat,
        *cloth_at(*_pixel_indices(read_at, g.area.shape)),
        read_at,
        radii,
        config.colour,
        foreign=(own, config.foreign_chroma, config.foreign_lighter),
    )
    return _Found(placed, on_table(placed), has_highlight[keep], intruding[keep], features, dark_found[keep])


def _kept(
    image: np.ndarray,
    lightness: np.ndarray,
    centres: np.ndarray,
    has_highlight: np.ndarray,
    foreground: np.ndarray,
    body: np.ndarray,
    g: TableGeometry,
    centres_mm: np.ndarray,
    intruding: np.ndarray,
    config: ClassicConfig,
    bodiless: np.ndarray,
    cloth_at: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]],
    darkness: np.ndarray | None = None,
) -> np.ndarray:
    """(n,) which candidates are plausible (:func:`_plausible`) and no pocket's opening
    (:func:`_dark_mouth_blobs`); each judged alone."""
    keep = _plausible(
        centres,
        has_highlight,
        foreground,
        body,
        g,
        centres_mm,
        intruding,
        config,
        bodiless,
        image,
        cloth_at,
        darkness,
    )
    return keep & ~_dark_mouth_blobs(image, lightness, centres, has_highlight, body, g, centres_mm, config)


def _dark_search(
    scene: ClassicScene,
    windows: Sequence[tuple[int, int, int, int]],
    owner: Callable[[np.ndarray], np.ndarray],
    missing: MissingBalls | None,
    mosaic: _Mosaic,
    to_frame: Callable[[np.ndarray], np.ndarray],
    config: ClassicConfig,
) -> Callable[[np.ndarray], Callable[[np.ndarray], np.ndarray] | None] | None:
    """Where a region search looks for dark blobs (``dark_blobs_where_missing``), as ``_find``'s
    ``dark_search`` takes it: None everywhere (a ball that may be dark is ``missing``, lost within
    ``dark_blob_missing_frames``, or the rule is off); else, given the plausible candidates found
    otherwise (mosaic px), the filter of the windows whose known balls (the last detection's, frame
    px, owned by them) are not all found again and of the windows overlapping those, or None where
    all are found."""
    if not config.dark_blobs_where_missing:
        return None
    if missing is not None and len(missing.names):
        dark = np.isin(missing.names, config.dark_blob_names)
        dark |= missing.confidence < config.dark_blob_sure_confidence
        if np.any(dark & (missing.age <= config.dark_blob_missing_frames)):
            return None
    last = scene.detections
    known = np.concatenate([last.xy_px.reshape(-1, 2), last.unnamed_xy_px.reshape(-1, 2)])
    known_window = owner(known) if len(known) else np.zeros(0, dtype=int)
    mine = known_window >= 0
    known, known_window = known[mine], known_window[mine]
    g = scene.geometry
    reach = config.dark_blob_found_radii * _radius_at(g.radius, known - [g.x0, g.y0])
    boxes = np.array(windows, dtype=float).reshape(-1, 4)

    def search(kept: np.ndarray) -> Callable[[np.ndarray], np.ndarray] | None:
        fresh = to_frame(kept) if len(kept) else np.zeros((0, 2))
        fresh_window = mosaic.index[mosaic.window_of(kept)] if len(kept) else np.zeros(0, dtype=int)
        unfound = _unfound_windows(known, known_window, reach, fresh, fresh_window)
        if len(unfound) == 0:
            return None
        low, high = boxes[unfound, :2], boxes[unfound, 2:]
        overlapping = np.all(
            (boxes[:, None, :2] < high[None]) & (boxes[:, None, 2:] > low[None]), axis=2
        ).any(axis=1)
        searched = overlapping[mosaic.index]

        def inside(points: np.ndarray) -> np.ndarray:
            return searched[mosaic.window_of(points)] if len(points) else np.zeros(0, dtype=bool)

        return inside

    return search


def _unfound_windows(
    known: np.ndarray,
    known_window: np.ndarray,
    reach: np.ndarray,
    fresh: np.ndarray,
    fresh_window: np.ndarray,
) -> np.ndarray:
    """The windows (their indices) of which some known ball (``known`` (n, 2) px in window
    ``known_window`` (n,)) is not found again: each is matched, nearest pairs first, to a ball of
    ``fresh`` (k, 2) px of its window (``fresh_window`` (k,)) no other took, within its ``reach``
    (n,) px."""
    gap = np.linalg.norm(known[:, None] - fresh[None], axis=2)
    gap[(known_window[:, None] != fresh_window[None]) | (gap > reach[:, None])] = np.inf
    matched = np.zeros(len(known), dtype=bool)
    taken = np.zeros(len(fresh), dtype=bool)
    order = np.argsort(gap, axis=None)
    # the pairs within reach, nearest first (the unreachable, infinite, sort last)
    for flat in order[: np.count_nonzero(np.isfinite(gap))].tolist():
        i, j = divmod(flat, gap.shape[1])
        if not matched[i] and not taken[j]:
            matched[i] = taken[j] = True
    return np.unique(known_window[~matched])


def _named(
    scene: ClassicScene, config: ClassicConfig, starts: tuple[FrameTransform, ...] | None = None
) -> ClassicScene:
    """``scene`` with its candidates named jointly under the game's constraints (the colour
    transform searched from ``starts``, default every exposure: see ``colour.label_balls``)."""
    if len(scene.centres) == 0:
        scene.detections = BallDetections.empty()
        return scene
    g = scene.geometry
    # a candidate found by its darkness alone reads the cloth mixed with a ball: a place, not named
    nameable = ~scene.dark_found()
    n = len(scene.centres)
    labels, confidence, keep = np.full(n, "", dtype=object), np.zeros(n), np.zeros(n, dtype=bool)
    if nameable.any():
        white_was = _where_white_was(scene, config)
        labelling = label_balls(
            scene.features[nameable],
            config.colour,
            starts,
            glossy=scene.highlight[nameable],
            alone=~scene.intruding[nameable],
            first_start_margin=0.0 if starts is None else config.relabel_searched_margin,
            white_expected=None if white_was is None else white_was[nameable],
        )
        labels[nameable], confidence[nameable] = labelling.labels, labelling.confidence
        keep[nameable] = labelling.keep
        scene.transform = labelling.transform
        if starts is None:
            scene.searched_transform = labelling.transform
    centres = scene.centres[keep]
    offset = np.array([g.x0, g.y0], dtype=float)
    unnamed = ~keep & ~scene.intruding  # alone on the cloth: not the cue, a hand or a player
    scene.detections = BallDetections(
        centres + offset,
        _radius_at(g.radius, centres),
        labels[keep],
        confidence[keep],
        scene.centres_mm[keep],
        scene.centres_mm[unnamed],
        scene.centres[unnamed] + offset,
    )
    return scene


def _where_white_was(scene: ClassicScene, config: ClassicConfig) -> np.ndarray | None:
    """(n,) bool: the scene's candidates alone on the cloth within ``white_reach_mm`` of where its
    last naming had the white (None: it had none; a full detection starts a new scene: none)."""
    last = scene.detections
    white = last.xy_mm[(last.ball == CUE_BALL) & np.isfinite(last.xy_mm).all(axis=1)]
    if len(white) == 0:
        return None
    near = np.hypot(*(scene.centres_mm[:, None, :] - white[None]).transpose(2, 0, 1)).min(axis=1)
    return (near <= config.white_reach_mm) & ~scene.intruding


class _MosaicIntruders:
    """Which candidates of a mosaic lie in a region coming over the cushions.

    Judged as :func:`_in_intruders` does on the whole crop, on the mosaic's ``foreground``; a region
    that a window edge inside the crop cuts continues beyond it, so it is followed over the crop's
    foreground (``regions``).
    """

    def __init__(self, regions: _CropRegions, foreground: np.ndarray, mosaic: _Mosaic) -> None:
        self.regions, self.foreground, self.mosaic = regions, foreground, mosaic
        self._labelled: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def _labels(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The mosaic foreground's regions (labels), which are intruders, and which a window edge
        inside the crop cuts: labelled once, on the first ask with any centre, for every later ask
        (a search asks several times, as :func:`_intruders_of` says)."""
        if self._labelled is not None:
            return self._labelled
        mosaic, regions = self.mosaic, self.regions
        labels, areas, touching = _regions_touching(self.foreground, mosaic.geometry.band)
        intruder = touching & (areas > regions.min_area_px)
        crop_h, crop_w = mosaic.crop_shape
        cut = _cut_regions(labels, len(areas), mosaic.boxes, mosaic.tops, crop_h, crop_w)
        cut[0] = intruder[0] = False
        self._labelled = labels, intruder, cut
        return self._labelled

    def __call__(self, centres: np.ndarray) -> np.ndarray:
        if len(centres) == 0:
            return np.zeros(0, dtype=bool)
        mosaic, regions = self.mosaic, self.regions
        labels, intruder, cut = self._labels()
        which, result, firsts = _regions_at(labels, intruder, cut, np.asarray(centres, dtype=float))
        if len(firsts) == 0:
            return result
        # each cut region once, in the order of its label, followed from its first centre's pixel
        seeds = mosaic.to_crop(firsts[:, 1:].astype(float)).astype(int).tolist()
        for (k, _, _), (x, y) in zip(firsts.tolist(), seeds, strict=True):
            followed = regions.intrudes(x, y)
            if followed is not None:
                result[which == k] = followed
        return result


@numba.njit(cache=True, nogil=True)
def _cut_regions(
    labels: np.ndarray, count: int, boxes: np.ndarray, tops: np.ndarray, crop_h: int, crop_w: int
) -> np.ndarray:
    """The compiled loop of :meth:`_MosaicIntruders._labels`: (count,) bool, which of the mosaic's
    ``labels`` (h, w) meet an edge of a window (``boxes`` (k, 4) crop px x0, y0, x1, y1, stacked
    from mosaic row ``tops`` (k,)) that lies inside the crop (``crop_h`` × ``crop_w`` px)."""
    cut = np.zeros(count, dtype=np.bool_)
    for i in range(len(boxes)):
        x0, y0, x1, y1 = boxes[i, 0], boxes[i, 1], boxes[i, 2], boxes[i, 3]
        top, h, w = tops[i], y1 - y0, x1 - x0
        if y0 > 0:
            for x in range(w):
                cut[labels[top, x]] = True
        if y1 < crop_h:
            for x in range(w):
                cut[labels[top + h - 1, x]] = True
        if x0 > 0:
            for y in range(top, top + h):
                cut[labels[y, 0]] = True
        if x1 < crop_w:
            for y in range(top, top + h):
                cut[labels[y, w - 1]] = True
    return cut


@numba.njit(cache=True, nogil=True)
def _regions_at(
    labels: np.ndarray, intruder: np.ndarray, cut: np.ndarray, centres: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The compiled lookup of :meth:`_MosaicIntruders.__call__`: each of ``centres`` (n, 2) px
    (rounded half to even, clamped to ``labels`` (h, w)) as (n,) its label, (n,) bool whether that
    is an ``intruder``, and (m, 3) int, for each ``cut`` label met, in ascending order, the label and
    the pixel (x, y) of the first centre in it."""
    h, w = labels.shape
    n = len(centres)
    which = np.empty(n, dtype=labels.dtype)
    result = np.empty(n, dtype=np.bool_)
    first = np.full(len(cut), -1, dtype=np.int64)
    xs, ys = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
    met = 0
    for i in range(n):
        x = min(max(int(np.rint(centres[i, 0])), 0), w - 1)
        y = min(max(int(np.rint(centres[i, 1])), 0), h - 1)
        xs[i], ys[i] = x, y
        k = labels[y, x]
        which[i] = k
        result[i] = intruder[k]
        if cut[k] and first[k] < 0:
            first[k] = i
            met += 1
    firsts = np.empty((met, 3), dtype=np.int64)
    j = 0
    for k in range(len(cut)):
        if first[k] >= 0:
            firsts[j, 0], firsts[j, 1], firsts[j, 2] = k, xs[first[k]], ys[first[k]]
            j += 1
    return which, result, firsts


class _CropRegions:
    """Foreground regions of the whole crop followed from a seed pixel (one flood fill each, kept
    for the other windows of the same frame): whether each is an intruder (big, reaching the
    playing area's edge)."""

    def __init__(self, scene: ClassicScene, config: ClassicConfig) -> None:
        self.scene = scene
        self.geometry = scene.geometry
        self.min_area_px = config.intruder_min_area * np.pi * scene.geometry.typical_radius**2
        self._mask: np.ndarray | None = None
        self._answers: list[bool] = []

    def intrudes(self, x: int, y: int) -> bool | None:
        """Whether the region through crop pixel (x, y) is an intruder (None: no region there)."""
        full = self.scene.foreground
        if not full[y, x]:
            return None
        if self._mask is None or len(self._answers) >= _MAX_FILLS:
            self._mask = np.zeros((full.shape[0] + 2, full.shape[1] + 2), np.uint8)
            self._answers = []
        known = int(self._mask[y + 1, x + 1])
        if known:
            return self._answers[known - 1]
        mark = len(self._answers) + 1
        flags = 8 | cv2.FLOODFILL_MASK_ONLY | (mark << 8)
        area, _, _, (rx, ry, rw, rh) = cv2.floodFill(full, self._mask, (x, y), 1, 0, 0, flags)
        region = self._mask[1 + ry : 1 + ry + rh, 1 + rx : 1 + rx + rw] == mark
        touches = bool(np.any(region & self.geometry.band[ry : ry + rh, rx : rx + rw]))
        self._answers.append(touches and area > self.min_area_px)
        return self._answers[-1]


_MAX_FILLS = 255
"""Regions one flood-fill mask can tell apart (its marks are uint8)."""


def describe(
    frame_bgr: np.ndarray, view: CalibratedView, xy_px: np.ndarray, config: ClassicConfig | None = None
) -> np.ndarray:
    """(n, 7) colour features (``colour.FEATURE_NAMES``) of balls centred at ``xy_px`` (n, 2) in
    ``frame_bgr``, measured as :func:`detect_balls` measures them (for fitting colour models)."""
    config = config or ClassicConfig()
    g = table_geometry(view, frame_bgr.shape, config)
    if g is None or len(xy_px) == 0:
        return np.zeros((0, len(FEATURE_NAMES)))
    image = frame_bgr[g.y0 : g.y1, g.x0 : g.x1]
    centres = np.asarray(xy_px, dtype=float) - [g.x0, g.y0]
    cloth, _, _, _ = _cloth_masks(image, g, config)
    tophat = _tophat(lab_lightness(image), g.typical_radius)
    ix, iy = _pixel_indices(centres, g.area.shape)
    radii = _radius_at(g.radius, centres)
    cloth_here = cloth.chromaticity[iy, ix], cloth.brightness[iy, ix]
    return core_features(image, tophat, *cloth_here, centres, radii, config.colour)


def _cloth_masks(
    image: np.ndarray, g: TableGeometry, config: ClassicConfig, cloth: ClothEstimate | None = None
) -> tuple[ClothEstimate, np.ndarray, np.ndarray, bool]:
    """The cloth model (estimated here unless given), the foreground (not cloth) and the ball-body
    mask (foreground, or darker than the cloth: a green ball in its own shade) on ``image``, and
    whether the painted lines showed in it (taken out: see :func:`_cloth_foreground`)."""
    if cloth is None:
        cloth, _ = _estimate_cloth(image, g, config)
    different, darker = not_cloth(image, cloth, config.cloth, config.ball_body_darker_ratio)
    foreground, body, shown, _ = _cloth_foreground(image, different, darker, g, _cloth_at(cloth), config)
    return cloth, foreground, body, shown


def _cloth_foreground(
    image: np.ndarray,
    different: np.ndarray,
    darker: np.ndarray,
    g: TableGeometry,
    cloth_at: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]],
    config: ClassicConfig,
    shown: bool | None = None,
) -> tuple[np.ndarray, np.ndarray, bool, np.ndarray]:
    """The foreground and ball-body masks (:func:`_foreground_and_body`) of ``image``, which ``g``
    describes, from :func:`not_cloth`'s masks; where the table's painted lines outlast the
    smoothing, made again without their paint (:func:`_without_marking_paint`); whether they
    did; and the ``different`` mask they were made from, less the paint where it showed (what the
    loose body is judged on: see ``highlight_surround_loose_body``). ``shown``: that judged
    before, by a full detection (see ``ClassicScene.markings_shown``); None: judged here
    (:func:`_shows_marking_lines`)."""
    smooth_px = smooth_kernel_px(g.typical_radius, config)
    foreground, body = _foreground_and_body(different, darker, g.area, smooth_px)
    if g.markings is None:
        return foreground, body, False, different
    if shown is None:
        shown = _shows_marking_lines(foreground, g, config)
    if not shown:
        return foreground, body, False, different
    different = _without_marking_paint(image, different, darker, g, cloth_at, config)
    return *_foreground_and_body(different, darker, g.area, smooth_px), True, different


def _shows_marking_lines(foreground: np.ndarray, g: TableGeometry, config: ClassicConfig) -> bool:
    """Whether ``foreground`` holds the painted lines themselves: at least
    ``marking_shown_fraction`` of their centre lines' pixels in it, over a stretch longer than
    ``marking_shown_radii`` ball radii (where it does not, the smoothing removed them, and a ball on
    them is left as it is)."""
    line = g.markings == MARKING_LINE
    length = np.count_nonzero(line)
    if length < config.marking_shown_radii * g.typical_radius:
        return False
    return bool(np.count_nonzero(foreground & line) >= config.marking_shown_fraction * length)


def _foreground_and_body(
    different: np.ndarray, darker: np.ndarray, area: np.ndarray, smooth_px: int
) -> tuple[np.ndarray, np.ndarray]:
    """The foreground (not cloth, on the playing ``area``, smoothed over ``smooth_px`` squares) and
    the ball-body mask (foreground, or darker than the cloth) from :func:`not_cloth`'s masks."""
    foreground = _smooth(different & area, smooth_px)
    return foreground, foreground | _smooth(darker & area, smooth_px)


def _loose_body(
    different: np.ndarray, darker: np.ndarray, g: TableGeometry, config: ClassicConfig
) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """``share(centres, radii)``: (n,) the fraction of each disc (centres (n, 2) px, radii (n,) px;
    sampled as :func:`_surround` samples it) in the loose body of :func:`not_cloth`'s masks
    ``different`` and ``darker`` of the picture ``g`` describes: where most of :func:`_smooth`'s
    square is playing area that is either (see ``highlight_surround_loose_body``). Counted at
    the samples only (a few highlights a frame ask), so no mask of the whole picture is made."""
    side = smooth_kernel_px(g.typical_radius, config)
    area = g.area

    def share(centres: np.ndarray, radii: np.ndarray) -> np.ndarray:
        if len(centres) == 0:
            return np.zeros(0)
        return _loose_share(
            different,
            darker,
            area,
            np.asarray(centres, dtype=float),
            np.asarray(radii, dtype=float),
            _disc_offsets(),
            side,
        )

    return share


@numba.njit(cache=True, nogil=True)
def _loose_share(
    different: np.ndarray,
    darker: np.ndarray,
    area: np.ndarray,
    centres: np.ndarray,
    radii: np.ndarray,
    offsets: np.ndarray,
    side: int,
) -> np.ndarray:
    """The compiled body of :func:`_loose_body`'s share: each sample's pixel rounded and clamped
    as :func:`_mask_at` does, its ``side`` × ``side`` square counted with the picture's edges
    replicated as :func:`_smooth`'s box filter does."""
    h, w = area.shape
    half, majority = side // 2, (side * side) // 2
    out = np.zeros(len(centres))
    for i in range(len(centres)):
        held = 0
        for k in range(len(offsets)):
            x = min(max(int(np.rint(centres[i, 0] + radii[i] * offsets[k, 0])), 0), w - 1)
            y = min(max(int(np.rint(centres[i, 1] + radii[i] * offsets[k, 1])), 0), h - 1)
            count = 0
            for dy in range(-half, half + 1):
                yy = min(max(y + dy, 0), h - 1)
                for dx in range(-half, half + 1):
                    xx = min(max(x + dx, 0), w - 1)
                    if area[yy, xx] and (different[yy, xx] or darker[yy, xx]):
                        count += 1
            if count > majority:
                held += 1
        out[i] = held / len(offsets)
    return out


def _without_marking_paint(
    image: np.ndarray,
    different: np.ndarray,
    darker: np.ndarray,
    g: TableGeometry,
    cloth_at: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]],
    config: ClassicConfig,
) -> np.ndarray:
    """``different`` (:func:`not_cloth` of ``image``, which ``g`` describes; ``darker`` its mask of
    pixels darker than the cloth) less the pixels of the table's painted markings (``g.markings``,
    lines ``g.marking_px`` wide) that belong to no thicker shape, different or darker (an opening
    as wide as the lines removes them; a green ball's highlight over its dark body is no line),
    nor to its rim, and look like the paint blurred into the cloth
    (``ClassicConfig.mask_table_markings``): lighter than the local cloth
    (``cloth_at(ix, iy)``: its chromaticity and brightness), their chromaticity within
    ``marking_chroma_tolerance`` of the way from the cloth's to a neutral one, at most
    ``marking_max_paint_share`` of the way. A ball lying on a line keeps its pixels there: too
    thick, and its colours lie off that way (the white ball's at its end)."""
    if g.markings is None:
        return different
    rows = np.flatnonzero(g.markings.any(axis=1))
    if len(rows) == 0:
        return different
    # only the rows the markings cross (with room for the opening) are looked at
    y0, y1 = max(0, rows[0] - g.marking_px), min(len(different), rows[-1] + g.marking_px + 1)
    part = different[y0:y1]
    side = g.marking_px + 1
    shapes = (part | darker[y0:y1]).view(np.uint8)
    thick = cv2.morphologyEx(shapes, cv2.MORPH_OPEN, np.ones((side, side), np.uint8))
    # a thick shape's rim, blurred into the cloth, is its own (a ball's edge over a line)
    rim = 2 * config.marking_blur_px + 1
    thick = cv2.dilate(thick, np.ones((rim, rim), np.uint8))
    iy, ix = np.nonzero(part & (g.markings[y0:y1] > 0) & (thick == 0))
    if len(iy) == 0:
        return different
    iy = iy + y0
    bgr = image[iy, ix].astype(np.float32)
    total = bgr.sum(axis=1)
    chroma = bgr / np.maximum(total, np.float32(1.0))[:, None]
    cloth_chroma, cloth_brightness = cloth_at(ix, iy)
    towards = _GREY_CHROMATICITY - cloth_chroma
    length2 = np.maximum((towards * towards).sum(axis=1), np.float32(1e-9))
    share = ((chroma - cloth_chroma) * towards).sum(axis=1) / length2
    off_way = np.linalg.norm(chroma - cloth_chroma - share[:, None] * towards, axis=1)
    paint = (
        (total >= cloth_brightness)
        & (off_way <= config.marking_chroma_tolerance)
        & (share <= config.marking_max_paint_share)
    )
    out = different.copy()
    out[iy[paint], ix[paint]] = False
    return out


def _cloth_at(cloth: ClothEstimate) -> Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """``cloth_at(ix, iy)`` for :func:`_find`: ``cloth``'s chromaticity and brightness at pixels."""

    def at(ix: np.ndarray, iy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return cloth.chromaticity[iy, ix], cloth.brightness[iy, ix]

    return at


def _estimate_cloth(
    image: np.ndarray, g: TableGeometry, config: ClassicConfig
) -> tuple[ClothEstimate, ClothCells | None]:
    """The cloth model of the crop ``image``, and its cells (None where the crop's sides are not
    multiples of ``cloth_scale``: the crop is then shrunk whole and its cells are not kept)."""
    # The cloth is smooth: it is estimated on the image shrunk by ``cloth_scale`` and its maps
    # are interpolated back; the comparison with it runs at full resolution.
    scale = config.cloth_scale
    h, w = g.area.shape
    cloth_config = _shrunk_cloth_config(config)
    if h % scale or w % scale:
        small = cv2.resize(image, None, fx=1.0 / scale, fy=1.0 / scale, interpolation=cv2.INTER_AREA)
        small_area = cv2.resize(g.area.astype(np.uint8), small.shape[1::-1], interpolation=cv2.INTER_NEAREST)
        shrunk_cloth = estimate_cloth(small, small_area > 0, cloth_config)
        return _resize_cloth(shrunk_cloth, g.area.shape, config.cloth), None
    # Only the shrunk image's samples are made, each from its block of the crop.
    step = cloth_config.sample_step_px
    small_size = (w // scale, h // scale)
    small_area = cv2.resize(g.area.astype(np.uint8), small_size, interpolation=cv2.INTER_NEAREST)
    cells = cloth_cells(image, small_area[::step, ::step] > 0, cloth_config, scale)
    shrunk_cloth = cloth_from_grid(grid_of_cells(cells, cloth_config), (h // scale, w // scale), cloth_config)
    return _resize_cloth(shrunk_cloth, g.area.shape, config.cloth), cells


def _refresh_cloth(
    image: np.ndarray,
    scene: ClassicScene,
    windows: Sequence[tuple[int, int, int, int]],
    config: ClassicConfig,
) -> None:
    """Bring ``scene.cloth`` up to date with the crop ``image`` inside ``windows`` (frame px): the
    medians of the cells are taken again from ``image`` (all of them, or with
    ``redetect_fresh_cloth_reference`` off those around the windows alone, the others keeping
    theirs, of the last full detection or a later search), and the maps, interpolated twice
    (cells to the shrunk image, that to the crop, each by a whole factor), are made around the
    windows only. There the model is :func:`_estimate_cloth`'s of ``image`` (with the reference off,
    but for the reference of cloth-like cells: the median of all the cells' medians, of which only
    those around the windows are then this frame's); its saturation stays. Without kept cells the
    crop is estimated whole."""
    g = scene.geometry
    h, w = g.area.shape
    cells = scene.cloth_cells
    if cells is None:
        scene.cloth, _ = _estimate_cloth(image, g, config)
        return
    scale = config.cloth_scale
    cloth_config = _shrunk_cloth_config(config)
    side = cloth_cell_side(cloth_config)
    small_h, small_w = h // scale, w // scale
    rows, cols = cells.counts.shape
    wanted = np.zeros((rows, cols), bool)
    regions = []
    for fx0, fy0, fx1, fy1 in windows:
        x0, y0 = max(0, fx0 - g.x0), max(0, fy0 - g.y0)
        x1, y1 = min(w, fx1 - g.x0), min(h, fy1 - g.y0)
        if x1 <= x0 or y1 <= y0:
            continue
        # each interpolation is run on all it reads (pixels of the shrunk image, cells) to give
        # the window, so that it gives there what it gives over the whole image
        sx0, sx1 = _linear_support(x0, x1, scale, small_w)
        sy0, sy1 = _linear_support(y0, y1, scale, small_h)
        (c0, c1), (r0, r1) = _linear_support(sx0, sx1, side, cols), _linear_support(sy0, sy1, side, rows)
        wanted[r0:r1, c0:c1] = True
        regions.append(((x0, y0, x1, y1), (sx0, sy0, sx1, sy1), (c0, r0, c1, r1)))
    if not regions:
        return
    if config.redetect_fresh_cloth_reference:
        wanted[:] = True  # every cell: the reference of cloth-like cells is this frame's
    retake_cells(cells, image, wanted)
    grid = grid_of_cells(cells, cloth_config)
    for (x0, y0, x1, y1), (sx0, sy0, sx1, sy1), (c0, r0, c1, r1) in regions:
        shrunk = cv2.resize(
            grid[r0:r1, c0:c1], ((c1 - c0) * side, (r1 - r0) * side), interpolation=cv2.INTER_LINEAR
        )
        shrunk = shrunk[sy0 - r0 * side : sy1 - r0 * side, sx0 - c0 * side : sx1 - c0 * side]
        size = ((sx1 - sx0) * scale, (sy1 - sy0) * scale)
        inside = slice(y0 - sy0 * scale, y1 - sy0 * scale), slice(x0 - sx0 * scale, x1 - sx0 * scale)
        for target, channels in ((scene.cloth.chromaticity, slice(0, 3)), (scene.cloth.brightness, 3)):
            source = np.ascontiguousarray(shrunk[..., channels])
            target[y0:y1, x0:x1] = cv2.resize(source, size, interpolation=cv2.INTER_LINEAR)[inside]


def _linear_support(start: int, end: int, factor: int, length: int) -> tuple[int, int]:
    """The source pixels [lo, hi) (of ``length``) that OpenCV's INTER_LINEAR enlargement by the whole
    ``factor`` reads to give destination pixels [``start``, ``end``): destination x lies at source
    (x + 0.5) / factor - 0.5, between the source pixel below it and the next. At least two (an
    enlargement of one pixel is made otherwise, not as the same pixel on the whole image's edge)."""
    lo = max(0, (2 * start + 1 - factor) // (2 * factor))
    hi = min(length, max((2 * end - 1 - factor) // (2 * factor) + 2, lo + 2))
    return max(0, min(lo, hi - 2)), hi


def _shrunk_cloth_config(config: ClassicConfig) -> ClothConfig:
    """The cloth's thresholds for the crop shrunk by ``cloth_scale``."""
    return _shrunk_cloth(config.cloth, config.cloth_scale)


@functools.cache
def _shrunk_cloth(cloth: ClothConfig, scale: int) -> ClothConfig:
    """:func:`_shrunk_cloth_config`, made once per cloth config (a region search asks for it on
    every frame; ``dataclasses.replace`` costs ~50 µs a call)."""
    return replace(
        cloth,
        cell_px=max(1, cloth.cell_px // scale),
        sample_step_px=max(1, cloth.sample_step_px // scale),
    )


def _candidates(
    lightness: np.ndarray,
    tophat: np.ndarray,
    foreground: np.ndarray,
    body: np.ndarray,
    g: TableGeometry,
    on_table: Callable[[np.ndarray], np.ndarray],
    apart: Callable[[np.ndarray, np.ndarray], np.ndarray] | None,
    config: ClassicConfig,
    intruding: Callable[[np.ndarray], np.ndarray] | None = None,
    loose: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Candidate centres (px of ``lightness``): one per highlight, then one per ball-sized blob no
    highlight explains; each centred on its foreground and kept apart from the others on the
    table (positions from ``apart(points_mm, points)`` when given). Also their table positions,
    and which highlights are balls without a body to centre on: bodiless (see
    ``bodiless_shadow_offset``) or shown in part (see ``partial_max_region``). ``intruding(centres)``
    says which lie in a region coming over the cushions (default: judged on ``foreground``);
    ``loose(centres, radii)`` the loose body's share of discs (None: not judged; see
    ``highlight_surround_loose_body``)."""

    def separation_space(points_mm: np.ndarray, points: np.ndarray) -> np.ndarray:
        return points_mm if apart is None else apart(points_mm, points)

    intruding = intruding or _intruders_of(foreground, g.band, g.typical_radius, config)
    cloth_lightness = _cloth_lightness(lightness, g.inner, body, config)
    spots, bodiless, partial, spot_areas, loosely = _highlight_spots(
        lightness,
        tophat,
        body,
        g.radius,
        config,
        g.inner,
        cloth_lightness,
        g.area,
        on_table,
        loose if config.highlight_surround_loose_body else None,
        intruding,
    )
    # A ball without a body to centre on (bodiless, or shown in part) is placed by its highlight,
    # and is one only where no other candidate is: held back until the others are found. So is
    # one the loose body alone holds, centred on its foreground (see ``highlight_surround_loose_body``).
    held_back, loose_spots = spots[bodiless | partial], spots[loosely]
    implied = spots[~(bodiless | partial | loosely)]
    implied_areas = spot_areas[~(bodiless | partial | loosely)]
    spots = _refine(implied, foreground, g.radius, g.typical_radius, config)
    spot_r = _radius_at(g.radius, spots)
    covered = _coverage(body, spots, config.coverage_radius * spot_r) >= config.min_coverage
    if not covered.all():
        # a highlight inside its foreground whose disc is not covered: maybe a ball shown in part
        rows = np.flatnonzero(~covered)
        shown_in_part = _partly_shown(lightness, g.inner, body, implied[rows], spot_r[rows], config)[0]
        held_back = np.concatenate([held_back, implied[rows[shown_in_part]]])
    spots, implied, implied_areas = spots[covered], implied[covered], implied_areas[covered]
    spot_r = spot_r[covered]
    spots_mm = on_table(spots)
    kept = _separated(
        separation_space(spots_mm, spots),
        np.zeros((0, 2)),
        config.min_separation_mm,
        _distinct_highlights(
            implied,
            separation_space(spots_mm, spots),
            implied_areas,
            spot_r,
            lightness,
            cloth_lightness,
            intruding,
            on_table,
            separation_space,
            config,
        ),
    )
    spots, spots_mm = spots[kept], spots_mm[kept]
    support = foreground | ~g.area
    blobs = _blob_centres(foreground, g.area, spots, g.radius, g.peak_radius, config)
    blobs = _refine(blobs, support, g.radius, g.typical_radius, config)
    blob_r = _radius_at(g.radius, blobs)
    blobs = blobs[_coverage(support, blobs, config.coverage_radius * blob_r) >= config.min_coverage]
    blobs_mm = on_table(blobs)
    kept = _separated(
        separation_space(blobs_mm, blobs), separation_space(spots_mm, spots), config.blob_separation_mm
    )
    blobs, blobs_mm = blobs[kept], blobs_mm[kept]
    if len(loose_spots):
        spots, spots_mm = _loose_spots_apart(
            loose_spots,
            spots,
            spots_mm,
            blobs,
            blobs_mm,
            foreground,
            body,
            g,
            on_table,
            separation_space,
            config,
        )
    held_mm = on_table(held_back).reshape(-1, 2)
    others = np.concatenate([spots, blobs]).reshape(-1, 2)
    alone = _separated(
        separation_space(held_mm, held_back),
        separation_space(np.concatenate([spots_mm, blobs_mm]).reshape(-1, 2), others),
        STANDARD_TABLE.ball_diameter_mm,
    )
    held_back, held_mm = held_back[alone], held_mm[alone]
    unbodied = np.arange(len(spots) + len(held_back)) >= len(spots)
    return np.concatenate([spots, held_back]), blobs, np.concatenate([spots_mm, held_mm]), blobs_mm, unbodied


def _loose_spots_apart(
    loose_spots: np.ndarray,
    spots: np.ndarray,
    spots_mm: np.ndarray,
    blobs: np.ndarray,
    blobs_mm: np.ndarray,
    foreground: np.ndarray,
    body: np.ndarray,
    g: TableGeometry,
    on_table: Callable[[np.ndarray], np.ndarray],
    separation_space: Callable[[np.ndarray, np.ndarray], np.ndarray],
    config: ClassicConfig,
) -> tuple[np.ndarray, np.ndarray]:
    """``spots`` and ``spots_mm`` with the balls of the highlights the loose body alone holds
    (``loose_spots`` (k, 2) px, implied: see ``highlight_surround_loose_body``) after them: not
    where the highlight lies nearer the centre of a candidate found otherwise (``spots``,
    ``blobs``) than a ball's diameter less ``highlight_offset`` radii (the nearest another ball's
    highlight can lie: that ball touching it), each centred on its foreground and covered as a
    highlight's ball is, and kept only at ``min_separation_mm`` or more from those candidates and
    from each other (in order). Such a highlight is weaker evidence: a bright pixel at the rim of
    a ball held on its own highlight, over its shadow (and a ball it touches), is loose body all
    around too, and the ball it implies lies on that ball (a rendered white at rest against a red,
    its rim pixel a radius from its centre: the white moved 7 px, the red's place taken, and the
    touching ball went unseen; 5.jpg brighter, the white's lower rim 1.2 radii from its centre,
    73 mm on the table at the far end: a yellow; 39.jpg at JPEG quality 30, the black's
    highlight 1.9 radii from the white it touches)."""
    others = np.concatenate([spots, blobs]).reshape(-1, 2)
    others_mm = np.concatenate([spots_mm, blobs_mm]).reshape(-1, 2)
    if len(others):
        radii = _radius_at(g.radius, loose_spots)
        highlights = loose_spots - _highlight_drop(radii, config)
        gap = np.linalg.norm(highlights[:, None] - others[None], axis=2).min(axis=1)
        loose_spots = loose_spots[gap >= (_DIAMETER_RADII - config.highlight_offset) * radii]
    centred = _refine(loose_spots, foreground, g.radius, g.typical_radius, config)
    radii = _radius_at(g.radius, centred)
    centred = centred[_coverage(body, centred, config.coverage_radius * radii) >= config.min_coverage]
    centred_mm = on_table(centred).reshape(-1, 2)
    kept = _separated(
        separation_space(centred_mm, centred), separation_space(others_mm, others), config.min_separation_mm
    )
    return (
        np.concatenate([spots, centred[kept]]).reshape(-1, 2),
        np.concatenate([spots_mm, centred_mm[kept]]).reshape(-1, 2),
    )


def _plausible(
    centres: np.ndarray,
    has_highlight: np.ndarray,
    foreground: np.ndarray,
    body: np.ndarray,
    g: TableGeometry,
    centres_mm: np.ndarray,
    intruding: np.ndarray,
    config: ClassicConfig,
    bodiless: np.ndarray,
    image: np.ndarray,
    cloth_at: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]],
    darkness: np.ndarray | None = None,
) -> np.ndarray:
    """Which candidates can be balls: round (but for ``bodiless`` ones, whose body matches the
    cloth), resting on the playing area, and — when without a highlight, near a cushion or
    inside a region coming over the cushions (``intruding``) — standing out from the cloth around
    them (a stripe crossing them, a hand or a cue's shadow does not). The cloth around a candidate
    includes the cloth in shade (:func:`_shaded_cloth`, read in ``image``, the BGR picture the
    masks are of, against ``cloth_at``, the cloth model's chromaticity and brightness at its
    pixels). Candidates found by their darkness alone (``darkness``, see :func:`_dark_blobs`) are
    judged on the ball-body mask ``body`` instead of the foreground, round in it and standing out
    from cloth that is neither foreground nor darker (shade around one is no cloth: it lies in a
    shadow)."""
    radii = _radius_at(g.radius, centres)
    if darkness is None:
        darkness = np.zeros(len(centres), dtype=bool)
    # Near the playing area's edge (cushion faces, rails) the ring is unknown: only samples well
    # inside it count, as cloth or as blocked.
    reach = config.intruder_ball_ring * radii
    rest = STANDARD_TABLE.ball_radius_mm - config.cushion_margin_mm
    verdict, judgements, blocked, lit, judged = _judged_on_rings(
        np.asarray(centres, dtype=float).reshape(-1, 2),
        reach,
        radii,
        np.asarray(centres_mm, dtype=float).reshape(-1, 2),
        np.asarray(has_highlight, dtype=bool),
        np.asarray(intruding, dtype=bool),
        np.asarray(bodiless, dtype=bool),
        np.asarray(darkness, dtype=bool),
        g.inner,
        foreground,
        body,
        g.area,
        _round_offsets(config.ring_samples, (1.0,)),
        _round_offsets(config.round_directions, tuple(config.round_radii)),
        len(config.round_radii),
        np.array(
            [
                config.min_round_fill,
                config.min_round_directions,
                config.near_cushion_mm,
                STANDARD_TABLE.width_mm,
                STANDARD_TABLE.length_mm,
                rest,
                STANDARD_TABLE.width_mm - rest,
                STANDARD_TABLE.length_mm - rest,
                config.jaws_reach_mm,
                config.intruder_ball_min_cloth,
                config.intruder_blob_min_cloth,
            ],
            dtype=float,
        ),
        _mouth_centres(),
    )
    undecided = judgements[:, _UNDECIDED]
    if not undecided.any():
        return verdict
    # The cloth in shade (a player's, the cue's, the ball's own shadow) is cloth on the circle: it
    # is foreground only because it is darker. Judged only where it can decide (it only adds cloth).
    shade = blocked & undecided[:, None]
    if not shade.any():
        return verdict
    half = config.ring_samples // 2
    rows, cols = np.nonzero(shade)
    points = centres[rows] + reach[rows, None] * _round_offsets(config.ring_samples, (1.0,))[cols]
    shade[rows, cols] = _shaded_cloth(image, cloth_at, points, config)
    solid = blocked & ~shade
    # ...but not where what is not cloth crosses the circle on two opposite sides: the candidate
    # lies inside it (a glint on a hand, whose shadow lies beside it)
    inside = np.any(solid[:, :half] & solid[:, half:], axis=1)
    shade &= ~inside[:, None]
    cloth_share = (lit + shade.sum(axis=1)) / judged
    stands_out = cloth_share >= config.intruder_ball_min_cloth
    blob = judgements[:, _BLOB]
    return (
        judgements[:, _POSSIBLE]
        & (~judgements[:, _MUST_STAND_OUT] | stands_out)
        & ~(blob & (judgements[:, _CROSSED] | (cloth_share < config.intruder_blob_min_cloth)))
    )


(
    _MIN_ROUND_FILL,
    _MIN_ROUND_DIRECTIONS,
    _NEAR_CUSHION_MM,
    _WIDTH_MM,
    _LENGTH_MM,
    _REST_LOW_MM,
    _REST_HIGH_X_MM,
    _REST_HIGH_Y_MM,
    _JAWS_REACH_MM,
    _BALL_MIN_CLOTH,
    _BLOB_MIN_CLOTH,
) = range(11)
"""The entries of :func:`_judged_on_rings`' ``limits``: :func:`_plausible`'s limits (mm, shares), in a
float array (not a named tuple: numba's dispatcher tells tuples apart by their fields' types alone)."""

_POSSIBLE, _MUST_STAND_OUT, _BLOB, _CROSSED, _UNDECIDED = range(5)
"""The columns of :func:`_judged_on_rings`' judgements."""


@numba.njit(cache=True, nogil=True)
def _judged_on_rings(
    centres: np.ndarray,
    reach: np.ndarray,
    radii: np.ndarray,
    centres_mm: np.ndarray,
    has_highlight: np.ndarray,
    intruding: np.ndarray,
    bodiless: np.ndarray,
    darkness: np.ndarray,
    inner: np.ndarray,
    foreground: np.ndarray,
    body: np.ndarray,
    area: np.ndarray,
    ring: np.ndarray,
    round_offsets: np.ndarray,
    reaches: int,
    limits: np.ndarray,
    mouths: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The compiled pass of :func:`_plausible` over its ``centres`` (n, 2) px (``reach`` (n,) px
    their rings' radii, ``radii`` (n,) px the balls'), before the cloth in shade is judged:
    (n,) bool the verdict were no shade judged, (n, 5) bool the judgements the shade's judging
    needs (possible, must stand out, a blob in an intruder, crossed, undecided; see the column
    names), (n, ``len(ring)``) bool the ring's blocked samples, (n,) int its lit samples and (n,)
    int its judged ones (at least 1). Each sample rounded half to even and clamped to the image,
    as :func:`_mask_at`; the shares, means and distances as the array statements computed them
    (a NaN place mm neither rests, nor lies near a cushion or a pocket)."""
    n, samples = len(centres), len(ring)
    half = samples // 2
    h, w = inner.shape
    verdict = np.zeros(n, dtype=np.bool_)
    judgements = np.zeros((n, 5), dtype=np.bool_)
    blocked = np.zeros((n, samples), dtype=np.bool_)
    lit = np.zeros(n, dtype=np.int64)
    judged = np.zeros(n, dtype=np.int64)
    directions = len(round_offsets) // reaches
    for i in range(n):
        x, y = centres_mm[i, 0], centres_mm[i, 1]
        finite = x == x and y == y
        near = finite and (
            x < limits[_NEAR_CUSHION_MM]
            or limits[_WIDTH_MM] - x < limits[_NEAR_CUSHION_MM]
            or y < limits[_NEAR_CUSHION_MM]
            or limits[_LENGTH_MM] - y < limits[_NEAR_CUSHION_MM]
        )
        must_stand_out = (not has_highlight[i]) or intruding[i] or near
        seen = body if darkness[i] else foreground
        inner_count = 0
        lit_count = 0
        # the masks sampled first and combined at the samples (not over the whole image)
        for k in range(samples):
            px = int(np.rint(centres[i, 0] + reach[i] * ring[k, 0]))
            py = int(np.rint(centres[i, 1] + reach[i] * ring[k, 1]))
            py, px = min(max(py, 0), h - 1), min(max(px, 0), w - 1)
            on_inner = inner[py, px]
            blocked[i, k] = on_inner and seen[py, px]
            inner_count += on_inner
            lit_count += on_inner and not blocked[i, k]
        # A stripe (the cue, its shadow, an arm) crosses the circle on two opposite sides; the cue
        # touching the cue ball comes from one side only.
        crossed = False
        for k in range(half):
            crossed = crossed or (blocked[i, k] and blocked[i, k + half])
        judged[i] = max(1, inner_count)
        lit[i] = lit_count
        cloth_share = lit_count / judged[i]
        if bodiless[i]:
            round_enough = True
        else:
            on_body = darkness[i] or has_highlight[i]
            shape = body if on_body else foreground
            beyond = darkness[i] or not has_highlight[i]
            filled_directions = 0
            for d in range(directions):
                filled = 0
                for r in range(reaches):
                    k = d * reaches + r
                    px = int(np.rint(centres[i, 0] + radii[i] * round_offsets[k, 0]))
                    py = int(np.rint(centres[i, 1] + radii[i] * round_offsets[k, 1]))
                    py, px = min(max(py, 0), h - 1), min(max(px, 0), w - 1)
                    filled += shape[py, px] or (beyond and not area[py, px])
                filled_directions += filled / reaches >= limits[_MIN_ROUND_FILL]
            round_enough = filled_directions / directions >= limits[_MIN_ROUND_DIRECTIONS]
        resting = (
            x >= limits[_REST_LOW_MM]
            and x <= limits[_REST_HIGH_X_MM]
            and y >= limits[_REST_LOW_MM]
            and y <= limits[_REST_HIGH_Y_MM]
        )
        in_jaws = finite
        nearest = np.inf
        for m in range(len(mouths)):
            dx, dy = x - mouths[m, 0], y - mouths[m, 1]
            gap = np.sqrt(dx * dx + dy * dy)
            if gap != gap:
                in_jaws = False
            nearest = min(nearest, gap)
        in_jaws = in_jaws and nearest <= limits[_JAWS_REACH_MM]
        possible = round_enough and (resting or in_jaws)
        blob = intruding[i] and not has_highlight[i]
        undecided = possible and must_stand_out and not (blob and crossed) and not darkness[i]
        undecided = undecided and (
            cloth_share < limits[_BALL_MIN_CLOTH] or (blob and cloth_share < limits[_BLOB_MIN_CLOTH])
        )
        verdict[i] = (
            possible
            and (not must_stand_out or cloth_share >= limits[_BALL_MIN_CLOTH])
            and not (blob and (crossed or cloth_share < limits[_BLOB_MIN_CLOTH]))
        )
        judgements[i, _POSSIBLE] = possible
        judgements[i, _MUST_STAND_OUT] = must_stand_out
        judgements[i, _BLOB] = blob
        judgements[i, _CROSSED] = crossed
        judgements[i, _UNDECIDED] = undecided
    return verdict, judgements, blocked, lit, judged


_LAB_NEUTRAL = 128.0
"""The a* and b* of a neutral grey in OpenCV's 8-bit Lab (stored offset by this)."""


_MIN_CLOTH_CHROMA = 1.0
"""Floor (Lab a*b* units) of the cloth's chroma that shade is measured against (a grey cloth has
no hue to keep; one Lab unit is below any broadcast's cloth)."""


def _shaded_cloth(
    image: np.ndarray,
    cloth_at: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]],
    points: np.ndarray,
    config: ClassicConfig,
) -> np.ndarray:
    """(n,) bool: whether the pixels of ``image`` at ``points`` (n, 2) px (rounded, clamped) are the
    cloth in shade: no lighter than ``ring_shade_max_lightness_ratio`` times the local cloth's Lab
    lightness (``cloth_at``: the cloth model's chromaticity and brightness there), with the cloth's
    hue (within ``ring_shade_max_hue_deg``) and at least ``ring_shade_min_chroma_share`` of its
    chroma along it. Only these pixels are converted to Lab."""
    h, w = image.shape[:2]
    ix = _clamp(np.rint(points[:, 0]).astype(int), w - 1)
    iy = _clamp(np.rint(points[:, 1]).astype(int), h - 1)
    chroma, brightness = cloth_at(ix, iy)
    cloth_bgr = np.asarray(chroma, dtype=float) * (
        np.asarray(brightness, dtype=float)[:, None] + config.cloth.dark_chroma_floor
    )
    pixels = np.concatenate([image[iy, ix], np.clip(np.rint(cloth_bgr), 0, 255).astype(np.uint8)])
    lab = cv2.cvtColor(pixels[:, None], cv2.COLOR_BGR2Lab).reshape(-1, 3).astype(float)
    lab[:, 1:] -= _LAB_NEUTRAL
    seen, cloth = lab[: len(ix)], lab[len(ix) :]
    cloth_chroma = np.maximum(np.hypot(cloth[:, 1], cloth[:, 2]), _MIN_CLOTH_CHROMA)
    along = (seen[:, 1] * cloth[:, 1] + seen[:, 2] * cloth[:, 2]) / cloth_chroma
    across = np.abs(seen[:, 1] * cloth[:, 2] - seen[:, 2] * cloth[:, 1]) / cloth_chroma
    return (
        (seen[:, 0] <= config.ring_shade_max_lightness_ratio * cloth[:, 0])
        & (along >= config.ring_shade_min_chroma_share * cloth_chroma)
        & (across <= np.tan(np.radians(config.ring_shade_max_hue_deg)) * along)
    )


def _dark_mouth_blobs(
    image: np.ndarray,
    lightness: np.ndarray,
    centres: np.ndarray,
    has_highlight: np.ndarray,
    body: np.ndarray,
    g: TableGeometry,
    centres_mm: np.ndarray,
    config: ClassicConfig,
) -> np.ndarray:
    """Which candidates are a pocket's opening or the shade in its jaws (see ``mouth_blob_reach_mm``):
    without a highlight, by a pocket's mouth, with most of their ring beyond the cushion noses,
    darker than the bare cloth and of its hue."""
    out = np.zeros(len(centres), dtype=bool)
    suspect = np.flatnonzero(~has_highlight & _in_jaws(centres_mm, config.mouth_blob_reach_mm))
    if len(suspect) == 0:
        return out
    c = centres[suspect]
    radii = _radius_at(g.radius, c)
    judged = _ring_samples(g.inner, c, config.intruder_ball_ring * radii, config.ring_samples).sum(axis=1)
    few = judged < config.mouth_blob_min_judged_ring * config.ring_samples
    if not few.any():
        return out
    step = config.cloth_lightness_step_px
    bare = (g.inner & ~body)[::step, ::step]
    if not bare.any():
        return out
    cloth_lab = cv2.cvtColor(image[::step, ::step][bare][:, None], cv2.COLOR_BGR2LAB).reshape(-1, 3)
    cloth_lightness, cloth_a = (
        float(np.median(cloth_lab[:, 0])),
        float(np.median(cloth_lab[:, 1])) - _LAB_NEUTRAL,
    )
    h, w = lightness.shape
    for k, ((x, y), r) in enumerate(zip(c, config.coverage_radius * radii, strict=True)):
        if not few[k]:
            continue
        x0, x1 = max(0, int(np.floor(x - r))), min(w, int(np.ceil(x + r)) + 1)
        y0, y1 = max(0, int(np.floor(y - r))), min(h, int(np.ceil(y + r)) + 1)
        yy, xx = np.mgrid[y0:y1, x0:x1]
        inside = (xx - x) ** 2 + (yy - y) ** 2 <= r * r
        if not inside.any():
            continue
        pixels = image[y0:y1, x0:x1][inside][:, None]
        disc = cv2.cvtColor(pixels, cv2.COLOR_BGR2LAB).reshape(-1, 3).mean(axis=0)
        dark = disc[0] < config.mouth_blob_dark_ratio * cloth_lightness
        cloth_hued = cloth_a < 0.0 and disc[1] - _LAB_NEUTRAL <= config.mouth_blob_hue_share * cloth_a
        out[suspect[k]] = dark and cloth_hued
    return out


def table_geometry(
    view: CalibratedView, shape: tuple[int, ...], config: ClassicConfig, with_jaws: bool = False
) -> TableGeometry | None:
    """The crop, playing area and expected radii for frames of ``shape`` (H, W[, 3]); None when
    the playing area lies outside the frame. ``with_jaws``: the crop holds the jaws beyond the
    playing area too (:func:`_jaws_beyond_outline`, ``TableGeometry.jaws``; see
    :meth:`ClassicDetector.jaws_geometry`: a wider crop has other cloth cells, radius grid and
    ``peak_radius``, so it is used only on frames whose jaws changed)."""
    area_full = np.asarray(view.playing_area_mask(tuple(shape[:2]))).astype(np.uint8)
    if not area_full.any():
        return None
    jaws_full = _jaws_beyond_outline(view, area_full, config) if with_jaws else np.zeros_like(area_full)
    x, y, width, height = cv2.boundingRect(area_full | jaws_full)
    h, w = area_full.shape
    m = config.roi_margin_px
    # sides that are multiples of the cloth's scale: its cells are then kept (see ``_refresh_cloth``)
    x0, x1 = _span_of_multiple(max(0, x - m), min(w, x + width + m), w, config.cloth_scale)
    y0, y1 = _span_of_multiple(max(0, y - m), min(h, y + height + m), h, config.cloth_scale)
    step = config.radius_grid_px
    cols, rows = (x1 - x0) // step + 2, (y1 - y0) // step + 2
    gx = x0 + step * np.arange(cols, dtype=float)
    gy = y0 + step * np.arange(rows, dtype=float)
    grid = np.stack(np.meshgrid(gx, gy), axis=-1).reshape(-1, 2)
    radius_grid = np.asarray(view.ball_radius_px(view.image_to_table(grid)), dtype=np.float32).reshape(
        rows, cols
    )
    # Grid node k sits at crop pixel k * step; the radius changes slowly, so a plain resize does.
    radius = cv2.resize(
        radius_grid, ((cols - 1) * step + 1, (rows - 1) * step + 1), interpolation=cv2.INTER_LINEAR
    )
    radius = np.ascontiguousarray(radius[: y1 - y0, : x1 - x0])
    area = area_full[y0:y1, x0:x1] > 0
    inner = cv2.erode(area.astype(np.uint8), np.ones((3, 3), np.uint8), iterations=config.ring_edge_px) > 0
    band_kernel = np.ones((2 * config.boundary_band_px + 1,) * 2, np.uint8)
    band = area & ~cv2.erode(area.astype(np.uint8), band_kernel).astype(bool)
    typical = float(np.median(radius[area]))
    markings, marking_px = (
        _table_markings(view, (x0, y0, x1, y1), area, config) if config.mask_table_markings else (None, 0)
    )
    return TableGeometry(
        x0,
        y0,
        x1,
        y1,
        area,
        inner,
        band,
        radius,
        typical,
        float(np.median(radius)),
        markings,
        marking_px,
        _jaws_patches(jaws_full[y0:y1, x0:x1] > 0),
    )


@dataclass(frozen=True)
class JawsPatch:
    """One pocket's jaws beyond the playing area: ``mask`` (h, w) bool over crop px
    [``x0``, ``x1``) x [``y0``, ``y1``)."""

    x0: int
    y0: int
    x1: int
    y1: int
    mask: np.ndarray


def _jaws_patches(jaws: np.ndarray) -> tuple[JawsPatch, ...]:
    """The connected parts of ``jaws`` (crop px, bool), each in its bounding box."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(jaws.astype(np.uint8), connectivity=8)
    patches = []
    for k in range(1, count):
        x, y, w, h = (int(v) for v in stats[k, :4])
        patches.append(JawsPatch(x, y, x + w, y + h, labels[y : y + h, x : x + w] == k))
    return tuple(patches)


class JawsReference:
    """What the pockets' jaws beyond the playing area (``TableGeometry.jaws`` of ``geometry``)
    showed with no ball there: ``pictures``, one per patch, taken at each detection (:meth:`refresh`)
    where no ball was kept and the picture had not changed (the first frame's as it was); ``known``,
    where one was taken. A frame's jaws are searched only where a picture is known and they differ
    from it by more than ``ClassicConfig.jaws_change_levels`` (:meth:`searched`): the leather, nets
    and holes that have been there since the view began never make candidates; a ball that rolled
    there does, and stays changed against the picture (never taken over it) until it leaves. Where
    a ball was kept when the view began no picture is known until it left: there nothing beyond
    the outline is searched (a ball still found by its part inside, as without the jaws). A region
    search reads only the patches its windows overlap (:meth:`look`): a ball rolls into the jaws,
    so the windows take in the patch it moved into, and one resting there stays kept. ``geometry``
    is the detector's :meth:`ClassicDetector.jaws_geometry`; a frame is detected on its crop only
    where its jaws changed, and the picture is kept up to date by the detections on either crop."""

    def __init__(self, geometry: TableGeometry, pictures: list[np.ndarray], known: list[np.ndarray]) -> None:
        self.geometry = geometry
        self.pictures = pictures
        self.known = known
        g = geometry
        self._boxes = [(g.x0 + p.x0, g.y0 + p.y0, g.x0 + p.x1, g.y0 + p.y1) for p in g.jaws]

    @classmethod
    def of(cls, frame_bgr: np.ndarray, geometry: TableGeometry) -> JawsReference:
        """The reference of the view whose first frame is ``frame_bgr``: its pictures, none known
        yet (see :meth:`refresh`)."""
        g = geometry
        pictures = [frame_bgr[g.y0 + p.y0 : g.y0 + p.y1, g.x0 + p.x0 : g.x0 + p.x1].copy() for p in g.jaws]
        return cls(g, pictures, [np.zeros(p.mask.shape, bool) for p in g.jaws])

    def look(
        self,
        frame_bgr: np.ndarray,
        config: ClassicConfig,
        windows: Sequence[tuple[int, int, int, int]] | None = None,
    ) -> dict[int, np.ndarray]:
        """The jaws' pixels of ``frame_bgr`` that differ from their picture by more than
        ``jaws_change_levels`` (patch px, bool), by the index of their patch, for the patches that
        overlap ``windows`` (frame px; None: every patch, a full detection). The others are neither
        searched (:meth:`searched`) nor refreshed (:meth:`refresh`) this frame."""
        changed = {}
        for k, ((bx0, by0, bx1, by1), patch, picture) in enumerate(
            zip(self._boxes, self.geometry.jaws, self.pictures, strict=True)
        ):
            if windows is not None and not any(
                fx0 < bx1 and bx0 < fx1 and fy0 < by1 and by0 < fy1 for fx0, fy0, fx1, fy1 in windows
            ):
                continue
            gap = cv2.absdiff(frame_bgr[by0:by1, bx0:bx1], picture).max(axis=2)
            changed[k] = patch.mask & (gap > config.jaws_change_levels)
        return changed

    def _ball_sized(self, patch: JawsPatch, changed: np.ndarray, config: ClassicConfig) -> np.ndarray:
        """``changed`` (patch px) less its connected parts smaller than ``jaws_min_disc_share`` of
        a ball's disc where they lie."""
        if not changed.any():
            return changed
        _, labels, stats, centroids = cv2.connectedComponentsWithStats(changed.view(np.uint8), connectivity=8)
        at = centroids[1:] + np.array([patch.x0, patch.y0], dtype=float)
        discs = np.pi * _radius_at(self.geometry.radius, at) ** 2
        big = np.concatenate([[False], stats[1:, cv2.CC_STAT_AREA] >= config.jaws_min_disc_share * discs])
        return big[labels]

    def searched(self, look: dict[int, np.ndarray], config: ClassicConfig) -> TableGeometry | None:
        """The geometry with the playing area of the frame ``look`` (:meth:`look`) read: the
        cloth's, and the jaws' pixels that changed against their known picture; None where none
        did."""
        g = self.geometry
        area = None
        for k, changed in look.items():
            patch = g.jaws[k]
            changed = self._ball_sized(patch, changed & self.known[k], config)
            if changed.any():
                area = g.area.copy() if area is None else area
                area[patch.y0 : patch.y1, patch.x0 : patch.x1] |= changed
        return None if area is None else replace(g, area=area)

    def refresh(
        self,
        frame_bgr: np.ndarray,
        scene: ClassicScene,
        config: ClassicConfig,
        look: dict[int, np.ndarray],
        windows: Sequence[tuple[int, int, int, int]] | None = None,
    ) -> None:
        """Take the jaws' picture from ``frame_bgr`` in the patches ``look`` read (:meth:`look`)
        where ``scene`` (its detection, on this geometry's crop or another's) kept no ball within
        ``jaws_kept_radii`` radii, inside
        ``windows`` (frame px; None: everywhere, a full detection), the parts the detection looked
        at; where a picture was known, only where the frame had not changed against it (a ball
        missed a moment is not taken for the jaws)."""
        if not look:
            return
        g = self.geometry
        s = scene.geometry
        shift = np.array([s.x0 - g.x0, s.y0 - g.y0], dtype=float)
        centres = np.asarray(scene.centres, dtype=float).reshape(-1, 2) + shift
        radii = _radius_at(g.radius, centres) * config.jaws_kept_radii if len(centres) else np.zeros(0)
        for k, changed in look.items():
            patch, picture, known = g.jaws[k], self.pictures[k], self.known[k]
            taken = patch.mask & ~(known & changed)
            if windows is not None:
                looked = np.zeros_like(taken)
                for fx0, fy0, fx1, fy1 in windows:
                    x0, y0 = max(0, fx0 - g.x0 - patch.x0), max(0, fy0 - g.y0 - patch.y0)
                    x1, y1 = fx1 - g.x0 - patch.x0, fy1 - g.y0 - patch.y0
                    if x1 > x0 and y1 > y0:
                        looked[y0:y1, x0:x1] = True
                taken &= looked
            at = centres - np.array([patch.x0, patch.y0], dtype=float)
            near = np.flatnonzero(
                (at[:, 0] >= -radii)
                & (at[:, 0] < taken.shape[1] + radii)
                & (at[:, 1] >= -radii)
                & (at[:, 1] < taken.shape[0] + radii)
            )
            for (cx, cy), r in zip(at[near], radii[near], strict=True):
                cv2.circle(taken.view(np.uint8), (round(cx), round(cy)), int(np.ceil(r)), 0, -1)
            if taken.any():
                now = frame_bgr[g.y0 + patch.y0 : g.y0 + patch.y1, g.x0 + patch.x0 : g.x0 + patch.x1]
                picture[taken] = now[taken]
                known |= taken


_JAWS_BOX_MARGIN_RADII = 3
"""How far (ball radii) the box a pocket's jaws are looked at in reaches beyond the picture of
their table region: more than a ball's height and radius move its picture."""


def _jaws_beyond_outline(view: CalibratedView, area: np.ndarray, config: ClassicConfig) -> np.ndarray:
    """(H, W) uint8, 1 where a ball resting in a pocket's jaws shows outside the playing area
    (``area``: its mask in the frame, at the cloth's height, nonzero inside): within a ball's radius
    (px) of a pixel more than ``jaws_beyond_radii`` ball radii outside ``area`` that shows, at a
    ball centre's height, a point inside the cushion noses within ``jaws_reach_mm`` of a pocket's
    mouth centre (where :func:`_plausible` takes a ball in the jaws). Seen from beyond the pocket
    (the near corners) such a centre lies inside the outline or hardly outside, and nothing is
    added. Each pocket is looked at in the box around its jaws, grown by
    ``_JAWS_BOX_MARGIN_RADII``."""
    out = np.zeros(area.shape, np.uint8)
    h, w = area.shape
    table = STANDARD_TABLE
    reach = config.jaws_reach_mm
    outside = (area == 0).astype(np.uint8)
    for pocket in table.pockets.values():
        mouth = np.asarray(pocket.mouth_centre, dtype=float)
        corners = mouth + reach * np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])
        box = np.asarray(view.table_to_image(corners), dtype=float)
        if not np.isfinite(box).all():
            continue
        radius = int(np.ceil(np.max(np.atleast_1d(view.ball_radius_px(corners)))))
        margin = _JAWS_BOX_MARGIN_RADII * radius
        x0, y0 = np.floor(box.min(axis=0)).astype(int) - margin
        x1, y1 = np.ceil(box.max(axis=0)).astype(int) + margin + 1
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
        if x1 <= x0 or y1 <= y0:
            continue
        yy, xx = np.mgrid[y0:y1, x0:x1]
        pixels = np.column_stack([xx.ravel(), yy.ravel()]).astype(float)
        mm = np.asarray(view.image_to_table(pixels), dtype=float)
        inside = (
            (np.linalg.norm(mm - mouth, axis=1) <= reach)
            & (mm[:, 0] >= 0.0)
            & (mm[:, 0] <= table.width_mm)
            & (mm[:, 1] >= 0.0)
            & (mm[:, 1] <= table.length_mm)
        )
        far = cv2.distanceTransform(outside[y0:y1, x0:x1], cv2.DIST_L2, cv2.DIST_MASK_PRECISE)
        beyond = inside.reshape(yy.shape) & (far > config.jaws_beyond_radii * radius)
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
        out[y0:y1, x0:x1] |= cv2.dilate(beyond.astype(np.uint8), disc) & outside[y0:y1, x0:x1]
    return out


_MARKING_SAMPLES = 96
"""Points along the D's outline the markings are drawn through."""


def _table_markings(
    view: CalibratedView, box: tuple[int, int, int, int], area: np.ndarray, config: ClassicConfig
) -> tuple[np.ndarray | None, int]:
    """Where the baulk line and the D's arc (painted on the cloth) lie in the crop ``box`` (x0, y0,
    x1, y1 frame px): ``marking_width_mm`` wide at their widest in the picture plus
    ``marking_blur_px`` either side, on the playing ``area`` (``MARKING_BAND``, and ``MARKING_LINE``
    on their centre lines); and that band's width (px). None where none lies in the crop."""
    table = STANDARD_TABLE
    by = table.baulk_line_y_mm
    line_mm = np.array([[0.0, by], [table.width_mm, by]])
    arc_mm = table.d_boundary(_MARKING_SAMPLES)[: _MARKING_SAMPLES // 2]
    along = np.concatenate([line_mm, arc_mm])
    # the width in the picture where the markings lie (the nearest point to the camera is widest)
    width_px = 0.0
    for step in np.diag([config.marking_width_mm] * 2):
        ends = np.asarray(view.table_to_image(np.concatenate([along - step / 2, along + step / 2])), float)
        width_px = max(
            width_px, float(np.max(np.linalg.norm(ends[len(along) :] - ends[: len(along)], axis=1)))
        )
    half = int(np.ceil(width_px / 2)) + config.marking_blur_px
    centre = np.full(area.shape, 255, np.uint8)
    for points in (line_mm, arc_mm):
        image = np.asarray(view.table_to_image(points), float) - [box[0], box[1]]
        cv2.polylines(centre, [np.round(image).astype(np.int32)], False, 0, 1)
    # every pixel within ``half`` of the one-pixel centre line (exactly that wide, unlike a thick line)
    band = (cv2.distanceTransform(centre, cv2.DIST_L2, 3) <= half) & area
    if not band.any():
        return None, 0
    markings = band.astype(np.uint8) * MARKING_BAND
    markings[(centre == 0) & area] = MARKING_LINE
    return markings, 2 * half + 1


_GREY_CHROMATICITY = np.float32(1.0 / 3.0)
"""The rgb chromaticity of every channel of a grey (white paint, the white ball)."""
MARKING_BAND = 1
"""``TableGeometry.markings``: a pixel within the band of a painted marking..."""
MARKING_LINE = 2
"""...on its centre line."""


def smooth_kernel_px(typical_radius: float, config: ClassicConfig) -> int:
    """The foreground's median filter side (px) for balls of ``typical_radius`` px."""
    if typical_radius < config.small_ball_radius_px:
        return config.small_ball_kernel_px
    return config.smooth_kernel_px


def _span_of_multiple(start: int, end: int, limit: int, multiple: int) -> tuple[int, int]:
    """[``start``, ``end``) made a multiple of ``multiple`` long inside [0, ``limit``): grown at its
    end, else at its start, else (the frame too small) cut at its end."""
    missing = -(end - start) % multiple
    grown = min(missing, limit - end)
    end, missing = end + grown, missing - grown
    grown = min(missing, start)
    start, missing = start - grown, missing - grown
    if missing:
        end -= (end - start) % multiple
    return start, end


def _resize_cloth(cloth: ClothEstimate, shape: tuple[int, ...], config: ClothConfig) -> ClothEstimate:
    """The cloth maps interpolated to ``shape`` (H, W), with the saturation of the whole (which
    the windows searched later carry, so that one threshold serves the frame)."""
    size = (shape[1], shape[0])
    chromaticity = cv2.resize(cloth.chromaticity, size, interpolation=cv2.INTER_LINEAR)
    return ClothEstimate(
        chromaticity=chromaticity,
        brightness=cv2.resize(cloth.brightness, size, interpolation=cv2.INTER_LINEAR),
        saturation=cloth_saturation(chromaticity, config),
    )


def _core_centres(
    candidates: np.ndarray, placed: np.ndarray, radii: np.ndarray, core_radius: float
) -> np.ndarray:
    """(n, 2) px: where each ball's core is read. On the ball: at its candidate (n, 2), unless the
    candidate lies so far from where the ball is ``placed`` (n, 2; its rim's centre) that a core
    disc of ``core_radius`` ball radii (``radii`` (n,) px) around it reaches past the rim; there at
    the placed centre. A highlight, or a blob taking in the ball's shadow, can lie most of a radius
    off the ball: Task2 clip 23's cue ball under a darker tone curve, found 0.75 radii below its
    centre, read the cloth and shade under it, Lab (206, -30, 58) against (247, -14, 46), a yellow's
    colour, and was named yellow. A candidate nearer keeps its reading, on the ball either way:
    the core median of a ball shaded below can move with a fraction of a pixel, and every core read
    at its rim's centre lost the pink of Task2 clip 5 (read 0.7 px off its candidate, 20 darker,
    named red for 50 frames) and that clip's cue-ball track."""
    off_ball = np.hypot(*(placed - candidates).T) > (1.0 - core_radius) * radii
    return np.where(off_ball[:, None], placed, candidates)


def _pixel_indices(points: np.ndarray, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Rounded (x, y) pixel indices of ``points`` (n, 2), clipped to an image of ``shape``."""
    ix = _clamp(np.round(points[:, 0]).astype(int), shape[1] - 1)
    iy = _clamp(np.round(points[:, 1]).astype(int), shape[0] - 1)
    return ix, iy


def _smooth(mask: np.ndarray, side: int) -> np.ndarray:
    """The median of ``mask`` (bool) over squares of ``side`` px, edges replicated: where most of
    the square is set. Counted with a box filter — the same answer as ``cv2.medianBlur``, which on
    small windows costs tens of times more."""
    count = cv2.boxFilter(
        mask.astype(np.uint8), cv2.CV_16U, (side, side), normalize=False, borderType=cv2.BORDER_REPLICATE
    )
    return count > (side * side) // 2


def _tophat(lightness: np.ndarray, typical_radius: float) -> np.ndarray:
    """White top-hat of the lightness with a disc about one ball radius across: small bright spots."""
    size = max(3, round(typical_radius) | 1)
    element = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    return cv2.morphologyEx(lightness, cv2.MORPH_TOPHAT, element)


def _refine(
    centres: np.ndarray, mask: np.ndarray, radius: np.ndarray, typical_radius: float, config: ClassicConfig
) -> np.ndarray:
    """Move each centre (within ``refine_reach`` radii) to where its disc is best covered by
    ``mask``: the fraction of a square of half-side ``refine_radius`` typical radii around a pixel
    that is set (as ``cv2.blur`` of the mask gives it, zero beyond the image)."""
    if len(centres) == 0:
        return centres
    r = _radius_at(radius, centres)
    reach = max(1, round(config.refine_reach * _median(r)))
    box = max(1, round(config.refine_radius * typical_radius))
    return _best_covered(
        np.asarray(centres, dtype=float), mask, r, reach, box, config.refine_distance_penalty
    )


@numba.njit(cache=True, nogil=True)
def _best_covered(
    centres: np.ndarray, mask: np.ndarray, radii: np.ndarray, reach: int, box: int, penalty: float
) -> np.ndarray:
    """The compiled body of :func:`_refine`: for each centre, the pixel of the square of half-side
    ``reach`` around its rounded place (clamped to the image) with the best coverage less
    ``penalty`` per radius moved (the first best, rows of the square in turn). The coverage of a
    pixel — the set pixels of the square of half-side ``box`` around it over the square's area, in
    float32 as a box filter rounds it — is counted on a summed-area table of the part of ``mask``
    these squares reach, not on the whole image."""
    h, w = mask.shape
    scale = 1.0 / ((2 * box + 1) * (2 * box + 1))
    best_at = np.empty((len(centres), 2))
    for i in range(len(centres)):
        cx, cy, r = centres[i, 0], centres[i, 1], radii[i]
        bx, by = int(np.rint(cx)), int(np.rint(cy))
        x_lo = max(min(max(bx - reach, 0), w - 1) - box, 0)
        x_hi = min(min(max(bx + reach, 0), w - 1) + box + 1, w)
        y_lo = max(min(max(by - reach, 0), h - 1) - box, 0)
        y_hi = min(min(max(by + reach, 0), h - 1) + box + 1, h)
        sums = np.zeros((y_hi - y_lo + 1, x_hi - x_lo + 1), dtype=np.int64)
        for y in range(y_lo, y_hi):
            row = y - y_lo
            for x in range(x_lo, x_hi):
                col = x - x_lo
                sums[row + 1, col + 1] = mask[y, x] + sums[row, col + 1] + sums[row + 1, col] - sums[row, col]
        best = -np.inf
        for dy in range(-reach, reach + 1):
            iy = min(max(by + dy, 0), h - 1)
            top, bottom = max(iy - box, y_lo) - y_lo, min(iy + box + 1, y_hi) - y_lo
            for dx in range(-reach, reach + 1):
                ix = min(max(bx + dx, 0), w - 1)
                left, right = max(ix - box, x_lo) - x_lo, min(ix + box + 1, x_hi) - x_lo
                count = sums[bottom, right] - sums[top, right] - sums[bottom, left] + sums[top, left]
                coverage = np.float32(count * scale)
                score = coverage - penalty * (np.hypot(ix - cx, iy - cy) / r)
                if score > best:
                    best = score
                    best_at[i, 0], best_at[i, 1] = ix, iy
    return best_at


def _centre_on_rim(
    centres: np.ndarray,
    foreground: np.ndarray,
    radii: np.ndarray,
    config: ClassicConfig,
    area: np.ndarray | None = None,
) -> np.ndarray:
    """Each ball's centre (n, 2) px to a fraction of a pixel: the least-squares circle through the
    points where rays from its candidate centre leave the ``foreground`` over its rim, all round
    but for the bottom sector.

    A ball's image is a disc; its upper rim and its sides stand against lit cloth, while its bottom
    is shaded and merges with its shadow, so the bottom sector is left out (a centre from the whole
    blob, or from where a highlight sits, lies too high or too low). The rim points are found
    on the mask averaged over a few pixels and interpolated bilinearly, so they and the centre move
    smoothly with the picture: image noise that flips a pixel on the rim moves the centre by a
    small fraction of a pixel. Rim points far off the first circle (a ray that ran on along a cue,
    a touching ball or the shadow) are left out of a second fit. ``area`` (bool, the shape of
    ``foreground``): the playing area, on which alone the foreground is known (None: all of it); a
    ray that leaves the foreground at its edge is not used (see ``rim_cut_min_rays``).
    """
    if len(centres) == 0:
        return centres
    directions, steps = _rim_rays(
        config.rim_below_horizontal_deg, config.rim_rays, *config.rim_search, config.rim_step
    )
    side = config.rim_mask_average_px
    averaged = cv2.blur(foreground.astype(np.float32), (side, side))
    low, high = config.rim_radius_range
    candidates = np.ascontiguousarray(centres, dtype=float)
    refined = candidates.copy()
    known = np.ones(foreground.shape, dtype=bool) if area is None else np.ascontiguousarray(area, dtype=bool)
    _fit_rims(
        candidates,
        averaged,
        known,
        np.asarray(radii, dtype=float),
        directions,
        steps,
        _RimLimits(
            config.rim_step,
            _RIM_LEVEL,
            max(_CIRCLE_MIN_POINTS, config.rim_min_rays * config.rim_rays),
            config.rim_outlier,
            low,
            high,
            config.rim_max_shift,
            config.rim_refit_shift,
            config.rim_refits,
            config.rim_refit_max_shift,
            max(_CIRCLE_MIN_POINTS, config.rim_cut_min_rays * config.rim_rays),
            config.rim_cut_radius,
            config.rim_cut_max_shift,
            config.rim_cut_max_residual,
            config.rim_cut_reference_radius_px,
            _band_rays_px(directions, side // 2),
            config.rim_neighbour_radius,
            config.rim_neighbour_min_shift,
            side // 2,
            _SINGULAR_DETERMINANT,
        ),
        refined,
    )
    return refined


@functools.cache
def _rim_rays(
    below_deg: float, rays: int, inner: float, outer: float, step: float
) -> tuple[np.ndarray, np.ndarray]:
    """The rim fit's ray directions (rays, 2) (x, y down), all round but for ``below_deg`` under
    the horizontal on either side of the bottom, and its steps (radii) from ``inner`` to
    ``outer`` (read-only; made once per config)."""
    below = np.deg2rad(below_deg)
    angles = np.linspace(-below, np.pi + below, rays)
    directions = np.stack([np.cos(angles), -np.sin(angles)], axis=1)
    steps = np.arange(inner, outer + 1e-9, step)
    directions.flags.writeable = False
    steps.flags.writeable = False
    return directions, steps


class _RimLimits(NamedTuple):
    """The rim fit's numbers, passed to its compiled kernel: the ray step (radii), the rim's level
    on the averaged mask, the rays needed for a fit, the outlier distance (radii), the fitted
    radius's range and the centre's largest shift (radii), the shift beyond which a fit is fitted
    again (radii), how many times, and the largest shift of a fit that settled (radii); where rays
    could not see the rim (cut by the playing area's edge), the rays needed for a fit of a known
    radius, that radius (in expected radii), the largest shift down of a fit (radii) and the
    largest RMS residual of a fit of known radius (radii), the radius (px) below which these two
    keep their pixel parts (see ``rim_cut_reference_radius_px``) and the rays the band by the
    area's edge hides, times the radius (rays px, :func:`_band_rays_px`); how near another
    candidate (in its radii) a rim point lies when its ray ran over that ball's image (0: not
    looked at) and the least move (radii) of a fit without such rays; the half-side (px) of the
    square the mask is averaged over, and the singular determinant."""

    step: float
    level: float
    enough: float
    outlier: float
    low: float
    high: float
    max_shift: float
    refit_shift: float
    refits: int
    refit_max_shift: float
    enough_cut: float
    cut_radius: float
    cut_max_shift: float
    cut_residual: float
    cut_reference_radius: float
    band_rays_px: float
    neighbour: float
    neighbour_min_shift: float
    half_side: int
    singular: float


@numba.njit(cache=True, nogil=True)
def _fit_rims(
    centres: np.ndarray,
    averaged: np.ndarray,
    known: np.ndarray,
    radii: np.ndarray,
    directions: np.ndarray,
    steps: np.ndarray,
    limits: _RimLimits,
    refined: np.ndarray,
) -> None:
    """The compiled body of :func:`_centre_on_rim`, ball by ball (:func:`_settled_fit`);
    ``refined`` (n, 2) gets the centres whose fit is plausible (:func:`_plausible_fit`). Then a
    fit whose rim points disagreed is fitted again without the rays that ran over the image of
    another ball (within ``neighbour`` of its radii of where its first fit placed it), and that
    centre is used where it lies more than ``neighbour_min_shift`` radii from the first and
    farther from each such neighbour."""
    n, m, k = len(centres), len(directions), len(steps)
    points = np.empty((m, 2))
    use = np.empty(m, dtype=np.bool_)
    values = np.empty(k)
    none, none_r, none_hit = np.empty((0, 2)), np.empty(0), np.empty(0, dtype=np.bool_)
    loose = np.zeros(n, dtype=np.bool_)
    for i in range(n):
        cx, cy, r = centres[i, 0], centres[i, 1], radii[i]
        x, y, fitted, settled, cut, loose_fit = _settled_fit(
            cx, cy, r, averaged, known, directions, steps, limits, points, use, values, none, none_r, none_hit
        )
        loose[i] = fitted and loose_fit
        if fitted and _plausible_fit(cx, cy, x, y, r, settled, cut, limits):
            refined[i, 0] = x
            refined[i, 1] = y
    if limits.neighbour <= 0.0 or n < 2 or not loose.any():
        return
    first = refined.copy()
    for i in range(n):
        if not loose[i]:
            continue
        cx, cy, r = centres[i, 0], centres[i, 1], radii[i]
        # the neighbours (placed by their first fits) whose images its rays could run over
        near = np.zeros(n, dtype=np.bool_)
        for q in range(n):
            reach = steps[k - 1] * r + limits.neighbour * radii[q]
            near[q] = q != i and np.hypot(first[q, 0] - cx, first[q, 1] - cy) <= reach
        if not near.any():
            continue
        others, others_r = first[near], radii[near]
        hit = np.zeros(len(others), dtype=np.bool_)
        x, y, fitted, settled, cut, _ = _settled_fit(
            cx, cy, r, averaged, known, directions, steps, limits, points, use, values, others, others_r, hit
        )
        if not (fitted and hit.any() and _plausible_fit(cx, cy, x, y, r, settled, cut, limits)):
            continue
        away = np.hypot(x - first[i, 0], y - first[i, 1]) > limits.neighbour_min_shift * r
        for q in range(len(others)):
            if hit[q]:
                before = np.hypot(first[i, 0] - others[q, 0], first[i, 1] - others[q, 1])
                away = away and np.hypot(x - others[q, 0], y - others[q, 1]) > before
        if away:
            refined[i, 0] = x
            refined[i, 1] = y


@numba.njit(cache=True, nogil=True)
def _settled_fit(
    cx: float,
    cy: float,
    r: float,
    averaged: np.ndarray,
    known: np.ndarray,
    directions: np.ndarray,
    steps: np.ndarray,
    limits: _RimLimits,
    points: np.ndarray,
    use: np.ndarray,
    values: np.ndarray,
    others: np.ndarray,
    others_r: np.ndarray,
    hit: np.ndarray,
) -> tuple[float, float, bool, bool, bool, bool]:
    """One ball's rim fit (:func:`_fit_rim`) from its candidate (``cx``, ``cy``), fitted again from
    its own centre while it moves up by more than ``refit_shift`` radii (at most ``refits`` times;
    whichever way it moves where rays were left out). Its centre, whether a fit had a radius in
    range, whether the last moved less than ``refit_shift`` (settled), whether rays were left out
    of any, and whether the last one's rim points disagreed (see :func:`_fit_rim`)."""
    x, y = cx, cy
    settled = fitted = cut = loose = False
    for _ in range(limits.refits + 1):
        ox, oy, radius, cut_fit, loose_fit = _fit_rim(
            x, y, r, averaged, known, directions, steps, limits, points, use, values, others, others_r, hit
        )
        if not limits.low * r <= radius <= limits.high * r:
            break
        x, y = x + ox, y + oy
        fitted = True
        cut = cut or cut_fit
        loose = loose_fit
        if max(abs(ox), abs(oy)) <= limits.refit_shift * r:
            settled = True
            break
        if not cut_fit and -oy < max(abs(ox), limits.refit_shift * r):
            break  # not mostly up, off the shadow side: fitted once, as it is
    return x, y, fitted, settled, cut, loose


@numba.njit(cache=True, nogil=True, inline="always")
def _plausible_fit(
    cx: float, cy: float, x: float, y: float, r: float, settled: bool, cut: bool, limits: _RimLimits
) -> bool:
    """Whether a fit from (``cx``, ``cy``) to (``x``, ``y``) is used: within ``max_shift`` radii,
    or, where the fits settled, within ``max_shift`` sideways and up to ``refit_max_shift`` above
    it (or ``cut_max_shift`` below it where rays were left out)."""
    dx, dy = x - cx, y - cy
    return max(abs(dx), abs(dy)) <= limits.max_shift * r or (
        settled
        and abs(dx) <= limits.max_shift * r
        and (-limits.refit_max_shift * r <= dy < 0.0 or (cut and 0.0 < dy <= limits.cut_max_shift * r))
    )


@numba.njit(cache=True, nogil=True)
def _fit_rim(
    cx: float,
    cy: float,
    r: float,
    averaged: np.ndarray,
    known: np.ndarray,
    directions: np.ndarray,
    steps: np.ndarray,
    limits: _RimLimits,
    points: np.ndarray,
    use: np.ndarray,
    values: np.ndarray,
    others: np.ndarray,
    others_r: np.ndarray,
    hit: np.ndarray,
) -> tuple[float, float, float, bool, bool]:
    """One ball's rim fit from (``cx``, ``cy``): along each ray (``directions`` (m, 2), at
    ``steps`` (k,) radii of ``r``) the averaged mask is sampled bilinearly, the rim is where it
    first falls below the level after rising to it (interpolated between the two samples), a
    circle is fitted through the rim points relative to the start and fitted again without the
    outliers. A ray along which the rim could not be seen is not used: its rim sample's averaging
    square reaches beyond ``known`` (the playing area: it found only the area's edge), or its rim
    point lies within ``neighbour`` of their radii ``others_r`` (q,) of one of ``others`` (q, 2)
    (it ran over that ball's image; ``hit`` (q,) is set for it). Where such rays left too few, a
    circle of ``cut_radius`` times ``r`` is fitted (:func:`_enough_cut` rays needed, within
    ``cut_residual`` radii, of ``r`` or of ``cut_reference_radius`` where r is smaller). Its
    centre's offset from the start and its radius (px), NaN where too few rays found the rim, whether
    rays were left out so, and whether the rim points disagreed (fewer than ``enough`` of them on the
    circle through all: that circle is the one returned). ``points``, ``use``, ``values``: scratch
    arrays of m × 2, m and k."""
    m, k = len(directions), len(steps)
    h, w = averaged.shape
    found = cut = 0
    for j in range(m):
        for s in range(k):
            reach = r * steps[s]
            x, y = cx + directions[j, 0] * reach, cy + directions[j, 1] * reach
            values[s] = _bilinear_at(averaged, h, w, x, y)
        out = -1
        entered = False
        for s in range(k):
            inside = values[s] >= limits.level
            entered = entered or inside
            if entered and not inside:
                out = s
                break
        # the sample where it left the foreground, or its last where it did not: beyond the edge,
        # the ray saw the edge (or nothing), not the rim
        reach = r * steps[out if out > 0 else k - 1]
        x, y = cx + directions[j, 0] * reach, cy + directions[j, 1] * reach
        if _beyond_known(known, h, w, x, y, limits.half_side):
            cut += 1
            out = -1
        use[j] = out > 0
        if out > 0:
            v_in, v_out = values[out - 1], values[out]
            fraction = min(max((v_in - limits.level) / max(v_in - v_out, 1e-6), 0.0), 1.0)
            distance = r * (steps[out - 1] + fraction * limits.step)
            points[j, 0] = directions[j, 0] * distance
            points[j, 1] = directions[j, 1] * distance
            x, y = cx + points[j, 0], cy + points[j, 1]
            for q in range(len(others)):
                if np.hypot(x - others[q, 0], y - others[q, 1]) <= limits.neighbour * others_r[q]:
                    hit[q] = True
                    use[j] = False
            cut += not use[j]
            found += use[j]
    known_radius = found < limits.enough
    if not known_radius:
        enough = limits.enough
        ox, oy, radius = _circle_through(points, use, limits.singular)
    elif cut > 0 and found >= _enough_cut(r, limits):
        enough = _enough_cut(r, limits)
        ox, oy, radius = _circle_of_radius(points, use, limits.cut_radius * r, 0.0, 0.0, limits.singular)
    else:
        return np.nan, np.nan, np.nan, False, False
    on_rim = 0
    for j in range(m):
        dx, dy = points[j, 0] - ox, points[j, 1] - oy
        off = abs(np.sqrt(dx * dx + dy * dy) - radius)
        use[j] = use[j] and off <= limits.outlier * r
        on_rim += use[j]
    if on_rim >= enough:
        if known_radius:
            ox, oy, radius = _circle_of_radius(points, use, limits.cut_radius * r, ox, oy, limits.singular)
        else:
            ox, oy, radius = _circle_through(points, use, limits.singular)
    if known_radius:
        squares = 0.0
        for j in range(m):
            if use[j]:
                dx, dy = points[j, 0] - ox, points[j, 1] - oy
                squares += (np.sqrt(dx * dx + dy * dy) - radius) ** 2
        if not squares <= on_rim * (limits.cut_residual * max(r, limits.cut_reference_radius)) ** 2:
            return np.nan, np.nan, np.nan, False, False
    return ox, oy, radius, cut > 0, on_rim < enough


@numba.njit(cache=True, nogil=True, inline="always")
def _enough_cut(r: float, limits: _RimLimits) -> float:
    """The rays a fit of known radius needs for a ball of radius ``r`` (px): ``enough_cut``, fewer
    below ``cut_reference_radius`` by the rays the band by the area's edge hides there beyond those
    it hides at that radius (at least a circle's three points)."""
    extra = limits.band_rays_px * max(1.0 / r - 1.0 / limits.cut_reference_radius, 0.0)
    return max(_CIRCLE_MIN_POINTS, limits.enough_cut - extra)


def _band_rays_px(directions: np.ndarray, half_side: int) -> float:
    """The rays the band by the area's edge hides at the two ends of a seen arc of a rim of radius
    1 px, so that over a rim of radius r it hides this / r rays: a sample of the mask averaged
    over squares of half-side ``half_side`` reads ``half_side`` px beyond its bilinear pixel, which
    lies half a pixel on on average, and a band of w px hides about w / r radians of a rim where the
    rim crosses it; over the rays' angular spacing (``directions`` (m, 2), evenly spread). With a
    3 px square and 48 rays, 28 ray px: the white on Task2 clip 14 against the far cushion found
    its rim on 9 rays at 720 lines (6.4 px) and 7 at 480 (4.27 px), 2.2 fewer by this."""
    first, second = directions[0], directions[1]
    spacing = abs(np.arctan2(first[0] * second[1] - first[1] * second[0], first @ second))
    return 2.0 * (half_side + 0.5) / float(spacing)


@numba.njit(cache=True, nogil=True, inline="always")
def _beyond_known(known: np.ndarray, h: int, w: int, x: float, y: float, half_side: int) -> bool:
    """Whether a bilinear sample at (x, y) of a mask averaged over squares of half-side
    ``half_side`` reads any pixel beyond ``known`` (h, w) (or beyond the image)."""
    x0, y0 = int(np.floor(x)), int(np.floor(y))
    for yy in range(y0 - half_side, y0 + half_side + 2):
        for xx in range(x0 - half_side, x0 + half_side + 2):
            if yy < 0 or yy >= h or xx < 0 or xx >= w or not known[yy, xx]:
                return True
    return False


_RIM_RADIUS_FIT_STEPS = 10
"""Gauss-Newton steps of a circle fit of known radius (it converges in 3-5 from within half a
radius)..."""


_RIM_RADIUS_FIT_TOLERANCE_PX = 1e-3
"""...stopped once a step moves the centre less than this (px)."""


@numba.njit(cache=True, nogil=True)
def _circle_of_radius(
    points: np.ndarray, use: np.ndarray, radius: float, ox: float, oy: float, singular: float
) -> tuple[float, float, float]:
    """The centre of the circle of ``radius`` nearest (least squares of the distances) the ``use``d
    rows of ``points`` (m, 2), by Gauss-Newton from (``ox``, ``oy``), and the radius; NaN where the
    points fix no centre."""
    for _ in range(_RIM_RADIUS_FIT_STEPS):
        a = b = c = gx = gy = 0.0
        for j in range(len(points)):
            if not use[j]:
                continue
            dx, dy = points[j, 0] - ox, points[j, 1] - oy
            d = np.sqrt(dx * dx + dy * dy)
            if d <= 0.0:
                continue
            ux, uy = dx / d, dy / d
            e = d - radius
            # residual e, its gradient with respect to the centre is -u
            a += ux * ux
            b += ux * uy
            c += uy * uy
            gx += ux * e
            gy += uy * e
        det = a * c - b * b
        if not abs(det) > singular:
            return np.nan, np.nan, np.nan
        sx = (c * gx - b * gy) / det
        sy = (a * gy - b * gx) / det
        ox, oy = ox + sx, oy + sy
        if sx * sx + sy * sy < _RIM_RADIUS_FIT_TOLERANCE_PX * _RIM_RADIUS_FIT_TOLERANCE_PX:
            break
    return ox, oy, radius


@numba.njit(cache=True, nogil=True, inline="always")
def _bilinear_at(image: np.ndarray, h: int, w: int, x: float, y: float) -> float:
    """``image`` (h, w) sampled bilinearly at (x, y), clamped to its edges."""
    x = min(max(x, 0.0), w - 1.0)
    y = min(max(y, 0.0), h - 1.0)
    x0 = min(int(np.floor(x)), w - 2) if w > 1 else 0
    y0 = min(int(np.floor(y)), h - 2) if h > 1 else 0
    fx, fy = x - x0, y - y0
    x1, y1 = min(x0 + 1, w - 1), min(y0 + 1, h - 1)
    top = image[y0, x0] * (1 - fx) + image[y0, x1] * fx
    bottom = image[y1, x0] * (1 - fx) + image[y1, x1] * fx
    return top * (1 - fy) + bottom * fy


@numba.njit(cache=True, nogil=True)
def _circle_through(points: np.ndarray, use: np.ndarray, singular: float) -> tuple[float, float, float]:
    """The least-squares (algebraic) circle through the ``use``d rows of ``points`` (m, 2), from the
    normal equations of x² + y² + a x + b y + c = 0: its centre and radius; NaN where the points
    fix no circle (fewer than three, or all on a line)."""
    normal = np.zeros((3, 3))
    rhs = np.zeros(3)
    for j in range(len(points)):
        if not use[j]:
            continue
        x, y = points[j, 0], points[j, 1]
        row = (x, y, 1.0)
        target = -(x * x + y * y)
        for a in range(3):
            rhs[a] += row[a] * target
            for b in range(3):
                normal[a, b] += row[a] * row[b]
    if not abs(np.linalg.det(normal)) > singular:
        return np.nan, np.nan, np.nan
    solution = np.linalg.solve(normal, rhs)
    ox, oy = -solution[0] / 2.0, -solution[1] / 2.0
    return ox, oy, np.sqrt(max(ox * ox + oy * oy - solution[2], 0.0))


_RIM_LEVEL = 0.5
"""Where a ball's rim lies on the averaged foreground mask (0 cloth, 1 ball): half-covered."""


_CIRCLE_MIN_POINTS = 3.0
"""Rim points a circle fit needs at the least, whatever share of the rays is asked for: three fix a
circle (of unknown radius; a known radius needs two, three keep one to spare)."""

_SINGULAR_DETERMINANT = 1e-9
"""Below this determinant of a circle fit's normal equations (px⁶ scale) its points fix no circle."""


def _in_jaws(points_mm: np.ndarray, reach_mm: float) -> np.ndarray:
    """Whether each point (n, 2) mm lies within ``reach_mm`` of a pocket's mouth centre."""
    if len(points_mm) == 0:
        return np.zeros(0, dtype=bool)
    return np.min(np.linalg.norm(points_mm[:, None] - _mouth_centres()[None], axis=2), axis=1) <= reach_mm


@functools.cache
def _mouth_centres() -> np.ndarray:
    """(6, 2) mm: the pockets' mouth centres (read-only)."""
    mouths = np.array([p.mouth_centre for p in STANDARD_TABLE.pockets.values()])
    mouths.flags.writeable = False
    return mouths


def _near_cushion(points_mm: np.ndarray, distance_mm: float) -> np.ndarray:
    """Whether each point (n, 2) mm lies within ``distance_mm`` of a cushion nose."""
    if len(points_mm) == 0:
        return np.zeros(0, dtype=bool)
    x, y = points_mm[:, 0], points_mm[:, 1]
    gap = np.minimum.reduce([x, STANDARD_TABLE.width_mm - x, y, STANDARD_TABLE.length_mm - y])
    return gap < distance_mm


@functools.cache
def _round_offsets(directions: int, reaches: tuple[float, ...]) -> np.ndarray:
    """(directions × reaches, 2) offsets (radii): ``directions`` evenly spread directions, each at
    every reach in turn (read-only)."""
    angle = np.linspace(0.0, 2.0 * np.pi, directions, endpoint=False)
    reach = np.asarray(reaches)
    offsets = np.stack([np.cos(angle)[:, None] * reach[None], np.sin(angle)[:, None] * reach[None]], axis=2)
    offsets = offsets.reshape(-1, 2)
    offsets.flags.writeable = False
    return offsets


@numba.njit(cache=True, nogil=True)
def _mask_at(mask: np.ndarray, centres: np.ndarray, radii: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """(n, k) values of ``mask`` at centre + radius × offset (``centres`` (n, 2), ``radii`` (n,),
    ``offsets`` (k, 2)), rounded to pixels and clamped to the image."""
    h, w = mask.shape
    values = np.empty((len(centres), len(offsets)), dtype=mask.dtype)
    for i in range(len(centres)):
        for k in range(len(offsets)):
            x = int(np.rint(centres[i, 0] + radii[i] * offsets[k, 0]))
            y = int(np.rint(centres[i, 1] + radii[i] * offsets[k, 1]))
            values[i, k] = mask[min(max(y, 0), h - 1), min(max(x, 0), w - 1)]
    return values


def _ring_samples(bare_cloth: np.ndarray, centres: np.ndarray, radii: np.ndarray, samples: int) -> np.ndarray:
    """(n, samples) bool: whether each of ``samples`` evenly spread points on the circle (centre,
    radius) is bare cloth."""
    if len(centres) == 0:
        return np.zeros((0, samples), dtype=bool)
    return _mask_at(bare_cloth, centres, radii, _round_offsets(samples, (1.0,)))


def _in_intruders(
    centres: np.ndarray,
    foreground: np.ndarray,
    band: np.ndarray,
    typical_radius: float,
    config: ClassicConfig,
) -> np.ndarray:
    """Whether each centre lies in a large foreground region that comes in over the cushions
    (reaches ``band``, the playing area's edge)."""
    return _intruders_of(foreground, band, typical_radius, config)(centres)


def _intruders_of(
    foreground: np.ndarray, band: np.ndarray, typical_radius: float, config: ClassicConfig
) -> Callable[[np.ndarray], np.ndarray]:
    """:func:`_in_intruders` of ``foreground`` as a function of the centres, its regions labelled
    once, on the first ask with any centre, for every later ask (a detection asks several times:
    the highlights judged on the loose body, the pairs of distinct highlights, every candidate)."""
    labelled: list[tuple[np.ndarray, np.ndarray]] = []

    def intruding(centres: np.ndarray) -> np.ndarray:
        if len(centres) == 0:
            return np.zeros(0, dtype=bool)
        if not labelled:
            labels, areas, touching = _regions_touching(foreground, band)
            ball_area = np.pi * typical_radius**2
            intruder = touching & (areas > config.intruder_min_area * ball_area)
            intruder[0] = False
            labelled.append((labels, intruder))
        labels, intruder = labelled[0]
        h, w = foreground.shape
        ix = _clamp(np.round(centres[:, 0]).astype(int), w - 1)
        iy = _clamp(np.round(centres[:, 1]).astype(int), h - 1)
        return intruder[labels[iy, ix]]

    return intruding


def _radius_at(radius: np.ndarray, xy: np.ndarray) -> np.ndarray:
    """(n,) the expected radius (px) at each point (n, 2) of the crop: ``radius`` at its pixel."""
    return _value_at(radius, np.asarray(xy, dtype=float).reshape(-1, 2))


@numba.njit(cache=True, nogil=True)
def _value_at(image: np.ndarray, points: np.ndarray) -> np.ndarray:
    """(n,) float values of ``image`` (h, w) at ``points`` (n, 2) rounded to pixels and clamped."""
    h, w = image.shape
    values = np.empty(len(points))
    for i in range(len(points)):
        x, y = int(np.rint(points[i, 0])), int(np.rint(points[i, 1]))
        values[i] = image[min(max(y, 0), h - 1), min(max(x, 0), w - 1)]
    return values


def _highlight_spots(
    lightness: np.ndarray,
    tophat: np.ndarray,
    foreground: np.ndarray,
    radius: np.ndarray,
    config: ClassicConfig,
    inner: np.ndarray | None = None,
    cloth_lightness: float | None = None,
    area: np.ndarray | None = None,
    on_table: Callable[[np.ndarray], np.ndarray] | None = None,
    loose: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None,
    intruding: Callable[[np.ndarray], np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Ball centres implied by specular highlights inside the foreground, (n, 2) crop px, and
    (n,) bool whether each is a bodiless ball: a highlight outside the foreground with a shadow
    below it (see ``bodiless_shadow_offset``), and (n,) bool whether it is a ball whose body
    shows in part (see ``partial_max_region``; both looked for only when ``inner``, the playing
    area less its edge, is given: the cloth there is its bare part). A highlight's least
    lightness follows ``cloth_lightness`` when given: ``highlight_min_lightness`` scaled by the
    exposure (``cloth_lightness / highlight_reference_cloth_lightness``, at most 1), or
    ``highlight_min_lightness_ratio`` times ``cloth_lightness`` where that is lower. The top-hat
    minimum is not scaled (scaled, balls at rest jittered on the darkened clips). Where the
    playing ``area`` and ``on_table`` (crop px to table mm) are given (and
    ``highlight_surround_beyond_area``), the upper half of a highlight's surround beyond the area
    counts as foreground, away from the pockets. Where ``loose(centres, radii)`` (the loose
    body's share of discs), ``intruding(points)`` and ``on_table`` are given, a highlight whose
    surround falls short is judged again on the loose body, away from the pockets and from the
    regions coming over the cushions (see ``highlight_surround_loose_body``). Last, (n,) each
    highlight's area (its spots' together, px), and (n,) bool whether it was held on the loose
    body alone (merged apart from the others: it never moves a ball the body holds)."""
    floor = config.highlight_min_lightness
    if cloth_lightness is not None:
        exposure = min(1.0, cloth_lightness / config.highlight_reference_cloth_lightness)
        floor = min(floor * exposure, config.highlight_min_lightness_ratio * cloth_lightness)
    spots = _highlight_pixels(
        np.ascontiguousarray(tophat),
        np.ascontiguousarray(lightness),
        np.ascontiguousarray(foreground),
        float(config.highlight_min_tophat),
        float(floor),
    )
    areas, centroids = _sparse_regions_at(spots, foreground.shape)
    if len(areas) == 0:
        return (
            np.zeros((0, 2)),
            np.zeros(0, dtype=bool),
            np.zeros(0, dtype=bool),
            np.zeros(0),
            np.zeros(0, bool),
        )
    areas = areas.astype(float)
    r = _radius_at(radius, centroids)
    small = areas <= config.highlight_max_area * np.pi * r**2
    centroids, areas, r = centroids[small], areas[small], r[small]
    surround_r = config.highlight_surround * r
    inside = _surround(foreground, None, centroids, surround_r) >= config.highlight_min_surround
    if area is not None and on_table is not None and config.highlight_surround_beyond_area:
        rows = np.flatnonzero(~inside)
        lenient = (
            _surround(foreground, area, centroids[rows], surround_r[rows]) >= config.highlight_min_surround
        )
        rows = rows[lenient]
        if len(rows):
            implied_mm = on_table(_below_highlight(centroids[rows], r[rows], config)).reshape(-1, 2)
            inside[rows] = ~_in_jaws(implied_mm, config.highlight_surround_pocket_mm)
    on_body = inside.copy()
    if loose is not None and intruding is not None and on_table is not None and not inside.all():
        rows = np.flatnonzero(~inside)
        rows = rows[loose(centroids[rows], surround_r[rows]) >= config.highlight_min_surround]
        if len(rows):
            implied = _below_highlight(centroids[rows], r[rows], config)
            implied_mm = on_table(implied).reshape(-1, 2)
            inside[rows] = ~_in_jaws(implied_mm, config.highlight_surround_pocket_mm) & ~np.asarray(
                intruding(implied), dtype=bool
            )
    implied = _below_highlight(centroids, r, config)
    bodiless = np.zeros(len(centroids), dtype=bool)
    partial = np.zeros(len(centroids), dtype=bool)
    if inner is not None and (~inside).any():
        rows = np.flatnonzero(~inside)
        shown_in_part, region = _partly_shown(lightness, inner, foreground, implied[rows], r[rows], config)
        rows, region = rows[shown_in_part], region[shown_in_part]
        bare_disc = (
            _coverage(foreground, implied[rows], config.coverage_radius * r[rows]) < config.min_coverage
        )
        alone = bare_disc & (region <= config.bodiless_max_region)
        bodiless[rows[alone]] = True
        partial[rows[~alone]] = True
    return _spots_merged(
        centroids,
        areas,
        r,
        inside,
        on_body,
        bodiless,
        partial,
        radius,
        float(config.highlight_merge),
        float(config.highlight_offset),
    )


@numba.njit(cache=True, nogil=True)
def _spots_merged(
    centroids: np.ndarray,
    areas: np.ndarray,
    r: np.ndarray,
    inside: np.ndarray,
    on_body: np.ndarray,
    bodiless: np.ndarray,
    partial: np.ndarray,
    radius: np.ndarray,
    merge: float,
    offset: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The compiled last step of :func:`_highlight_spots`, over all its highlights (``centroids``
    (k, 2) px, ``areas`` (k,) px, ``r`` (k,) the expected radii there): which kind each is (held on
    the body, ``on_body``; ``bodiless``; ``partial``; or held on the loose body alone: ``inside``
    and not ``on_body``, unless it merges, itself or through others, with a spot the body holds:
    that ball's, which the body places as it is); each kind's spots merged (:func:`_merged_points`,
    ``merge`` radii apart) and moved to the ball centres they imply (``offset`` radii below, the
    radius read from ``radius`` (h, w) at the merged spot); last, a spot without a body of its own
    within a ball's diameter of a ball's own highlight left out (a glow on that ball). Returns
    :func:`_highlight_spots`' five: the centres (n, 2), bodiless (n,), partial (n,), areas (n,),
    loosely (n,). Every sum, product and comparison in the order of the array statements it
    replaces (``np.linalg.norm``, ``np.add.at``, ``np.bincount``), so its values are theirs."""
    loosely = inside & ~on_body
    if loosely.any() and on_body.any():
        rows = np.flatnonzero(inside)
        reach = r[rows] * merge
        group = _linked_groups(centroids[rows], reach)
        held = np.zeros(len(rows), dtype=np.bool_)
        for a in range(len(rows)):
            if on_body[rows[a]]:
                held[group[a]] = True
        for a in range(len(rows)):
            if held[group[a]]:
                loosely[rows[a]] = False
    kinds = (on_body, bodiless, partial, loosely)
    count = 0
    for kind in kinds:
        count += np.count_nonzero(kind)
    centres = np.empty((count, 2))
    flags = np.zeros((count, 3), dtype=np.bool_)
    spot_areas = np.empty(count)
    made = 0
    for which in range(len(kinds)):
        kind = kinds[which]
        if not kind.any():
            continue  # mostly the bodiless and the partly shown: none
        chosen = np.flatnonzero(kind)
        merged, totals = _merged_points(centroids[chosen], areas[chosen], r[chosen] * merge)
        below = _value_at(radius, merged)
        for i in range(len(merged)):
            centres[made, 0] = merged[i, 0] + 0.0
            centres[made, 1] = merged[i, 1] + offset * below[i]
            if which > 0:
                flags[made, which - 1] = True
            spot_areas[made] = totals[i]
            made += 1
    centres, flags, spot_areas = centres[:made], flags[:made], spot_areas[:made]
    own = np.flatnonzero(~(flags[:, 0] | flags[:, 1] | flags[:, 2]))
    unbodied = np.flatnonzero(flags[:, 0] | flags[:, 1])
    if len(unbodied) and len(own):
        # a spot without a body of its own within a ball's diameter of a ball's own highlight is
        # a glow on that ball
        reach = _value_at(radius, centres[unbodied])
        keep = np.ones(made, dtype=np.bool_)
        for a in range(len(unbodied)):
            nearest = np.inf
            for b in range(len(own)):
                dx = centres[unbodied[a], 0] - centres[own[b], 0]
                dy = centres[unbodied[a], 1] - centres[own[b], 1]
                gap = np.sqrt(dx * dx + dy * dy)
                if gap < nearest or np.isnan(gap):
                    nearest = gap
                    if np.isnan(gap):
                        break
            if nearest < _DIAMETER_RADII * reach[a]:
                keep[unbodied[a]] = False
        centres, flags, spot_areas = centres[keep], flags[keep], spot_areas[keep]
    return centres, flags[:, 0].copy(), flags[:, 1].copy(), spot_areas, flags[:, 2].copy()


@numba.njit(cache=True, nogil=True)
def _linked_groups(points: np.ndarray, distance: np.ndarray) -> np.ndarray:
    """The connected components of the graph linking points (n, 2) px closer than the lesser of
    their ``distance`` (n,) px (their gap as ``np.linalg.norm`` takes it): (n,) labels numbered in
    the order of each component's first point (as ``scipy.sparse.csgraph`` numbers them)."""
    n = len(points)
    group = np.full(n, -1, dtype=np.int64)
    stack = np.empty(n, dtype=np.int64)
    made = 0
    for first in range(n):
        if group[first] >= 0:
            continue
        group[first] = made
        stack[0], top = first, 1
        while top:
            top -= 1
            a = stack[top]
            for b in range(n):
                if group[b] >= 0:
                    continue
                dx, dy = points[a, 0] - points[b, 0], points[a, 1] - points[b, 1]
                if np.sqrt(dx * dx + dy * dy) < min(distance[a], distance[b]):
                    group[b] = made
                    stack[top] = b
                    top += 1
        made += 1
    return group


@numba.njit(cache=True, nogil=True)
def _merged_points(
    points: np.ndarray, weights: np.ndarray, distance: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Points (n, 2) closer than the lesser of their ``distance`` (n,), directly or through
    others, merged into their ``weights``' (n,) centroid, and each centroid's summed weight: each
    group's sums taken in the points' order from 0 (as ``np.add.at`` and ``np.bincount`` take
    them); where the links (each point's with itself counted) are as many as the points, the
    points and weights as they are."""
    n = len(points)
    links = 0
    for a in range(n):
        for b in range(n):
            dx, dy = points[a, 0] - points[b, 0], points[a, 1] - points[b, 1]
            links += np.sqrt(dx * dx + dy * dy) < min(distance[a], distance[b])
    if links == n:
        return points.copy(), weights.copy()
    group = _linked_groups(points, distance)
    count = group.max() + 1
    sums = np.zeros((count, 2))
    totals = np.zeros(count)
    for i in range(n):
        sums[group[i], 0] += points[i, 0] * weights[i]
        sums[group[i], 1] += points[i, 1] * weights[i]
        totals[group[i]] += weights[i]
    for g in range(count):
        sums[g, 0] /= totals[g]
        sums[g, 1] /= totals[g]
    return sums, totals


def _cloth_lightness(
    lightness: np.ndarray, inner: np.ndarray, body: np.ndarray, config: ClassicConfig
) -> float | None:
    """The median lightness (0–255) of the bare cloth — ``inner`` and not ``body`` — (every
    ``cloth_lightness_step_px``-th pixel: only those are compared), None where none is seen."""
    median = _bare_median(lightness, inner, body, config.cloth_lightness_step_px)
    return None if np.isnan(median) else median


@numba.njit(cache=True, nogil=True)
def _bare_median(lightness: np.ndarray, inner: np.ndarray, body: np.ndarray, step: int) -> float:
    """The compiled body of :func:`_cloth_lightness`: the median of the uint8 ``lightness`` at the
    samples (every ``step``-th pixel) on ``inner`` and off ``body``, counted in a histogram (the
    mean of the two middle values for an even count, as NumPy's median; NaN where none)."""
    histogram = np.zeros(256, dtype=np.int64)
    n = 0
    for y in range(0, lightness.shape[0], step):
        for x in range(0, lightness.shape[1], step):
            if inner[y, x] and not body[y, x]:
                histogram[lightness[y, x]] += 1
                n += 1
    return np.nan if n == 0 else histogram_median(histogram, n)


def _median(values: np.ndarray) -> float:
    """``float(np.median(values))`` of a short 1-D float array (n >= 1), by sorting (NumPy's median
    costs ~20 µs a call, most of it overhead, on the few values of one search)."""
    ordered = np.sort(values)
    n = len(ordered)
    return float(ordered[n // 2]) if n % 2 else float((ordered[n // 2 - 1] + ordered[n // 2]) / 2)


def _partly_shown(
    lightness: np.ndarray,
    inner: np.ndarray,
    foreground: np.ndarray,
    centres: np.ndarray,
    radii: np.ndarray,
    config: ClassicConfig,
) -> tuple[np.ndarray, np.ndarray]:
    """Whether the highlights implying ``centres`` (n, 2) px (``highlight_offset`` radii above
    them) may be balls whose body shows in part or not at all: the foreground region holding each
    highlight is at most ``partial_max_region`` ball discs and the ball's shadow shows below it on
    bare cloth (:func:`_shadowed`); and (n,) that region's area in ball discs πr²."""
    spots = centres - _highlight_drop(radii, config)
    ix, iy = _pixel_indices(spots, foreground.shape)
    disc = np.pi * radii**2
    # Only whether a region is small is asked: each is counted from its highlight, up to just
    # past the largest area that passes (a region that grows past it is larger, however large).
    area = _areas_up_to(foreground, ix, iy, np.floor(config.partial_max_region * disc) + 1)
    if np.any(area < 0):
        area[area < 0] = np.count_nonzero(~foreground)  # on the background: its area
    region = area / disc
    result = region <= config.partial_max_region
    # the shadow's test is the dearest: only on the regions small enough
    result[result] = _shadowed(lightness, inner, foreground, centres[result], radii[result], config)
    return result, region


@numba.njit(cache=True, nogil=True)
def _areas_up_to(mask: np.ndarray, xs: np.ndarray, ys: np.ndarray, limits: np.ndarray) -> np.ndarray:
    """(n,) the area (px) of the 8-connected region of the bool ``mask`` through each pixel
    (``xs``, ``ys``) (n,), counted by a flood fill that stops once it passes ``limits`` (n,) (the
    count then lies above the limit, below the area); -1 where the pixel is not set."""
    h, w = mask.shape
    seen = np.zeros((h, w), dtype=np.bool_)
    queue = np.empty(h * w, dtype=np.int64)
    areas = np.full(len(xs), -1, dtype=np.int64)
    for i in range(len(xs)):
        if not mask[ys[i], xs[i]]:
            continue
        seen[ys[i], xs[i]] = True
        queue[0] = ys[i] * w + xs[i]
        head, tail = 0, 1
        while head < tail and tail <= limits[i]:
            y, x = queue[head] // w, queue[head] % w
            head += 1
            for yy in range(max(y - 1, 0), min(y + 2, h)):
                for xx in range(max(x - 1, 0), min(x + 2, w)):
                    if mask[yy, xx] and not seen[yy, xx]:
                        seen[yy, xx] = True
                        queue[tail] = yy * w + xx
                        tail += 1
        areas[i] = tail
        for k in range(tail):
            seen[queue[k] // w, queue[k] % w] = False
    return areas


def _below_highlight(spots: np.ndarray, radii: np.ndarray, config: ClassicConfig) -> np.ndarray:
    """The ball centres (n, 2) px that highlight spots (n, 2) px imply: ``highlight_offset`` of
    their radii (n,) below them in the image."""
    return spots + _highlight_drop(radii, config)


def _highlight_drop(radii: np.ndarray, config: ClassicConfig) -> np.ndarray:
    """(n, 2) px from a highlight down to its ball's centre, for balls of ``radii`` (n,) px."""
    down = config.highlight_offset * np.asarray(radii)
    drop = np.zeros((len(down), 2), dtype=down.dtype)
    drop[:, 1] = down
    return drop


def _shadowed(
    lightness: np.ndarray,
    inner: np.ndarray,
    foreground: np.ndarray,
    centres: np.ndarray,
    radii: np.ndarray,
    config: ClassicConfig,
) -> np.ndarray:
    """Whether the picture below each implied centre is as dark as a ball's shadow against the
    cloth around it, the ball alone on bare cloth (``inner`` and not ``foreground``; see
    ``bodiless_shadow_ratio``)."""
    if len(centres) == 0:
        return np.zeros(0, dtype=bool)
    box = _shadow_box(config.bodiless_shadow_half, config.bodiless_shadow_offset)
    shadow = _mask_at(lightness, centres, radii, box).mean(axis=1)
    ring = _round_offsets(config.ring_samples, (config.bodiless_ring,))
    values = _mask_at(lightness, centres, radii, ring).astype(float)
    on_cloth = _mask_at(inner, centres, radii, ring).astype(bool)
    bare = on_cloth & ~_mask_at(foreground, centres, radii, ring).astype(bool)
    cloth = _masked_medians(values, bare)
    return (shadow <= config.bodiless_shadow_ratio * cloth) & (bare.mean(axis=1) >= config.bodiless_min_bare)


@functools.cache
def _shadow_box(half: float, offset: float) -> np.ndarray:
    """(k, 2) offsets (radii) of the shadow test's square: ``_SHADOW_SAMPLES``² points of the
    square of half-side ``half`` whose centre lies ``offset`` below the ball's (read-only)."""
    steps = np.linspace(-half, half, _SHADOW_SAMPLES)
    box = np.stack(np.meshgrid(steps, steps + offset), axis=-1).reshape(-1, 2)
    box.flags.writeable = False
    return box


def _masked_medians(values: np.ndarray, use: np.ndarray) -> np.ndarray:
    """(n,) the median of each row of ``values`` (n, k) over its ``use`` (n, k) bool entries, as
    ``np.median(values[i][use[i]])`` gives it (NaN for a row with none)."""
    counts = use.sum(axis=1)
    ordered = np.sort(np.where(use, values, np.inf), axis=1)
    rows = np.arange(len(values))
    low = ordered[rows, np.maximum(counts - 1, 0) // 2]
    high = ordered[rows, np.minimum(counts // 2, values.shape[1] - 1)]
    return np.where(counts > 0, (low + high) / 2, np.nan)


_SHADOW_SAMPLES = 5
"""Samples each way across the square where a bodiless ball's shadow is measured."""
_DIAMETER_RADII = 2.0
"""A ball's diameter, in radii."""


def _regions_touching(mask: np.ndarray, band: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """8-connected regions of a bool mask: the (H, W) int32 labels (as ``cv2.connectedComponents``
    numbers them; 0 the background), and per label its area (px) and whether it has a pixel in
    ``band`` (H, W) bool (the background's flag means nothing)."""
    count, labels = cv2.connectedComponents(mask.view(np.uint8), connectivity=8)
    areas, touching = _label_areas_touching(labels, band, count)
    return labels, areas, touching


@numba.njit(cache=True, nogil=True)
def _label_areas_touching(labels: np.ndarray, band: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    """The compiled body of :func:`_regions_touching`: one pass counting each label's pixels and
    marking the labels met in ``band``."""
    areas = np.zeros(count, dtype=np.int64)
    touching = np.zeros(count, dtype=np.bool_)
    for y in range(labels.shape[0]):
        for x in range(labels.shape[1]):
            label = labels[y, x]
            areas[label] += 1
            if band[y, x]:
                touching[label] = True
    return areas, touching


def _sparse_regions(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Area (k,) and centroid (k, 2) (x, y) of each 8-connected region of a bool mask with few
    pixels, background left out (as ``cv2.connectedComponentsWithStats`` gives them, in its
    order, summing only the mask's own pixels)."""
    # np.nonzero is many times slower on a 2-D mask than the flat index of a flat bool one; the
    # regions are labelled over the set pixels alone (a labelling of the whole image costs more
    # than everything else here on the sparse masks of highlights and blob peaks)
    return _sparse_regions_at(np.flatnonzero(np.ascontiguousarray(mask, dtype=bool).ravel()), mask.shape)


def _sparse_regions_at(flat: np.ndarray, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_sparse_regions` of the mask of ``shape`` (h, w) whose set pixels are ``flat``
    (ascending flat indices)."""
    if len(flat) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros((0, 2))
    return _label_sparse(flat, shape[0], shape[1])


def _explained_shapes(found: np.ndarray, r_found: np.ndarray, config: ClassicConfig) -> list[list[int]]:
    """Per found ball (centres (k, 2) px, radii (k,) px) the whole pixels of what it explains in
    :func:`_blob_centres`: [x, y, the centre of its shadowed ellipse's y, the reach
    (``explained_radius`` radii) and the ellipse's half height (the reach and half the shadow,
    ``shadow_extent`` radii)], each rounded half to even as Python's ``round`` rounds a float (one
    array pass instead of five calls a ball)."""
    if len(found) == 0:
        return []
    x, y = found[:, 0], found[:, 1]
    reach = config.explained_radius * r_found
    shadow = config.shadow_extent * r_found / 2
    rounded = np.rint(np.stack([x, y, y + shadow, reach, reach + shadow], axis=1))
    return rounded.astype(np.int64).tolist()


@numba.njit(cache=True, nogil=True)
def _blob_depth(
    depth: np.ndarray, deep: np.ndarray, area: np.ndarray, radius: np.ndarray, unshadowed: np.float32
) -> np.ndarray:
    """(h, w) float32 ball depth on the playing ``area`` (0 beyond it): the distance ``depth``,
    or ``deep`` (the distance without the found balls' shadows) where that is at least
    ``unshadowed`` radii (``radius`` (h, w) float32), products taken in float32 as array code
    takes them (``np.where(deep * area >= unshadowed * radius, deep * area, depth * area)``)."""
    h, w = depth.shape
    out = np.zeros((h, w), np.float32)
    for y in range(h):
        for x in range(w):
            if area[y, x]:
                out[y, x] = deep[y, x] if deep[y, x] >= unshadowed * radius[y, x] else depth[y, x]
    return out


@numba.njit(cache=True, nogil=True)
def _highlight_pixels(
    tophat: np.ndarray, lightness: np.ndarray, foreground: np.ndarray, min_tophat: float, floor: float
) -> np.ndarray:
    """Ascending flat indices of the pixels whose ``tophat`` reaches ``min_tophat`` and
    ``lightness`` reaches ``floor`` with ``foreground`` in their 3 × 3 neighbourhood (clipped to
    the image): ``(tophat >= min_tophat) & (lightness >= floor) & dilate(foreground, 3 × 3)``."""
    h, w = tophat.shape
    found = np.empty(h * w, dtype=np.int64)
    count = 0
    for y in range(h):
        for x in range(w):
            if tophat[y, x] >= min_tophat and lightness[y, x] >= floor:
                near = False
                for yy in range(max(y - 1, 0), min(y + 2, h)):
                    for xx in range(max(x - 1, 0), min(x + 2, w)):
                        near = near or foreground[yy, xx]
                if near:
                    found[count] = y * w + x
                    count += 1
    return found[:count]


@numba.njit(cache=True, nogil=True)
def _label_sparse(flat: np.ndarray, h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    """The compiled body of :func:`_sparse_regions`, given the flat indices (ascending) of the set
    pixels of an (h, w) mask: their 8-connected regions joined by union–find, numbered as OpenCV
    numbers them (by the first 2 × 2 block each region meets, blocks in raster order: its
    block-based labelling gives each new block its label in that order and keeps the smallest
    one of a merged region), their areas and pixel sums taken in raster order."""
    n = len(flat)
    parent = np.arange(n)
    for i in range(n):
        y, x = flat[i] // w, flat[i] % w
        for dy, dx in ((-1, -1), (-1, 0), (-1, 1), (0, -1)):
            yy, xx = y + dy, x + dx
            if yy < 0 or xx < 0 or xx >= w:
                continue
            j = np.searchsorted(flat[:i], yy * w + xx)
            if j >= i or flat[j] != yy * w + xx:
                continue
            a, b = i, j
            while parent[a] != a:
                a = parent[a]
            while parent[b] != b:
                b = parent[b]
            if a != b:
                parent[max(a, b)] = min(a, b)
    root = np.empty(n, dtype=np.int64)
    first_block = np.full(n, h * w, dtype=np.int64)
    for i in range(n):
        a = i
        while parent[a] != a:
            a = parent[a]
        root[i] = a
        y, x = flat[i] // w, flat[i] % w
        first_block[a] = min(first_block[a], (y // 2) * w + x // 2)
    roots = np.flatnonzero(first_block < h * w)
    order = roots[np.argsort(first_block[roots], kind="mergesort")]
    number = np.empty(n, dtype=np.int64)
    for k in range(len(order)):
        number[order[k]] = k
    areas = np.zeros(len(order), dtype=np.int64)
    sums = np.zeros((len(order), 2))
    for i in range(n):
        k = number[root[i]]
        areas[k] += 1
        sums[k, 0] += flat[i] % w
        sums[k, 1] += flat[i] // w
    centroids = np.empty((len(order), 2))
    for k in range(len(order)):
        centroids[k, 0] = sums[k, 0] / areas[k]
        centroids[k, 1] = sums[k, 1] / areas[k]
    return areas, centroids


def _clamp(index: np.ndarray, last: int) -> np.ndarray:
    """Integer indices limited to [0, last] (``np.clip`` for small arrays, without its overhead)."""
    return np.minimum(np.maximum(index, 0), last)


@functools.cache
def _disc_offsets(samples: int = 9) -> np.ndarray:
    """Offsets on a unit disc, (k, 2): a square grid of ``samples``² points clipped to the disc."""
    t = np.linspace(-1.0, 1.0, samples)
    grid = np.stack(np.meshgrid(t, t), axis=-1).reshape(-1, 2)
    offsets = grid[np.hypot(grid[:, 0], grid[:, 1]) <= 1.0]
    offsets.flags.writeable = False
    return offsets


def _coverage(foreground: np.ndarray, centres: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """Fraction of each disc (centre, radius) that is foreground."""
    if len(centres) == 0:
        return np.zeros(0)
    return _mask_at(
        foreground, np.asarray(centres, dtype=float), np.asarray(radii, dtype=float), _disc_offsets()
    ).mean(axis=1)


def _surround(
    foreground: np.ndarray, area: np.ndarray | None, centres: np.ndarray, radii: np.ndarray
) -> np.ndarray:
    """Fraction of each disc (centre, radius) that is foreground, where the part of its upper half
    (above the centre in the image) beyond the playing ``area``, when given, counts as foreground:
    there a ball resting by a cushion rises over the nose line (see
    ``highlight_surround_beyond_area``)."""
    if len(centres) == 0:
        return np.zeros(0)
    centres, radii, offsets = (
        np.asarray(centres, dtype=float),
        np.asarray(radii, dtype=float),
        _disc_offsets(),
    )
    covered = _mask_at(foreground, centres, radii, offsets).astype(bool)
    if area is not None:
        upper = offsets[:, 1] < 0.0
        covered[:, upper] |= ~_mask_at(area, centres, radii, offsets[upper]).astype(bool)
    return covered.mean(axis=1)


def _distinct_highlights(
    implied: np.ndarray,
    centred: np.ndarray,
    areas: np.ndarray,
    radii: np.ndarray,
    lightness: np.ndarray,
    cloth_lightness: float | None,
    intruding: Callable[[np.ndarray], np.ndarray],
    on_table: Callable[[np.ndarray], np.ndarray],
    separation_space: Callable[[np.ndarray, np.ndarray], np.ndarray],
    config: ClassicConfig,
) -> np.ndarray:
    """(n, n) bool: which pairs of highlight candidates are two balls however close their centring
    brings them (see ``distinct_highlight_min_area``): both highlights cover that share of the
    disc and peak at ``distinct_highlight_min_peak`` times ``cloth_lightness`` (None: unknown, no
    pair) in ``lightness``, they place their balls ``min_separation_mm`` apart or more, and
    neither lies in a region coming over the cushions (``intruding(points)`` (k,) bool, asked
    only of the candidates of such pairs), and their ``centred`` places (n, 2) (mm, as they are
    kept apart) lie ``distinct_highlight_min_centred_mm`` apart or more. ``implied`` (n, 2) px,
    the highlights' ``areas`` (n,) px, the balls' ``radii`` (n,) px."""
    n = len(implied)
    if n < 2 or cloth_lightness is None:
        return np.zeros((n, n), dtype=bool)
    big = areas >= config.distinct_highlight_min_area * np.pi * radii**2
    spots = implied - _highlight_drop(radii, config)
    big &= _peaks_reach(
        lightness,
        spots,
        np.asarray(radii, dtype=float),
        big,
        float(config.distinct_highlight_peak_window),
        float(config.distinct_highlight_min_peak * cloth_lightness),
    )
    if np.count_nonzero(big) < 2:
        return np.zeros((n, n), dtype=bool)
    placed = separation_space(on_table(implied).reshape(-1, 2), implied)
    apart = np.linalg.norm(placed[:, None] - placed[None], axis=2) >= config.min_separation_mm
    apart &= (
        np.linalg.norm(centred[:, None] - centred[None], axis=2) >= config.distinct_highlight_min_centred_mm
    )
    distinct = apart & big[:, None] & big[None]
    paired = np.flatnonzero(distinct.any(axis=1))
    if len(paired):
        alone = np.ones(n, dtype=bool)
        alone[paired] = ~np.asarray(intruding(implied[paired]), dtype=bool)
        distinct &= alone[:, None] & alone[None]
    return distinct


@numba.njit(cache=True, nogil=True)
def _peaks_reach(
    lightness: np.ndarray,
    spots: np.ndarray,
    radii: np.ndarray,
    asked: np.ndarray,
    window: float,
    least: float,
) -> np.ndarray:
    """The compiled loop of :func:`_distinct_highlights`: (n,) bool, for the ``asked`` (n,) spots
    (n, 2) px, whether ``lightness`` (h, w) uint8 reaches ``least`` in the square of half side
    ``window`` radii (``radii`` (n,) px; at least 1 px) around the spot's pixel (all rounded half to
    even, as Python's ``round``; the square cut as a Python slice of the image cuts it: an empty
    square reaches nothing)."""
    h, w = lightness.shape
    reached = np.zeros(len(spots), dtype=np.bool_)
    for i in range(len(spots)):
        if not asked[i]:
            continue
        half = max(1, int(np.rint(window * radii[i])))
        x, y = int(np.rint(spots[i, 0])), int(np.rint(spots[i, 1]))
        y0, y1 = _slice_bounds(y - half, y + half + 1, h)
        x0, x1 = _slice_bounds(x - half, x + half + 1, w)
        peak = -1
        for yy in range(y0, y1):
            for xx in range(x0, x1):
                peak = max(peak, int(lightness[yy, xx]))
        reached[i] = peak >= 0 and float(peak) >= least
    return reached


@numba.njit(cache=True, nogil=True)
def _slice_bounds(start: int, stop: int, length: int) -> tuple[int, int]:
    """The rows (or columns) ``[max(0, start) : min(length, stop)]`` takes of an axis of ``length``,
    as Python's slice reads those bounds (a negative stop counts from the end)."""
    first = min(max(0, start), length)
    last = min(length, stop)
    if last < 0:
        last = max(0, last + length)
    return first, max(first, last)


def _separated(
    points_mm: np.ndarray, taken_mm: np.ndarray, separation_mm: float, distinct: np.ndarray | None = None
) -> np.ndarray:
    """Greedy in order: keep each point at least ``separation_mm`` from the taken and kept ones
    (but for the pairs ``distinct`` (n, n) bool marks, which never exclude each other)."""
    keep = np.zeros(len(points_mm), dtype=bool)
    if len(points_mm) == 0:
        return keep
    free = np.ones(len(points_mm), dtype=bool)
    if len(taken_mm):
        free = np.min(np.linalg.norm(points_mm[:, None] - taken_mm[None], axis=2), axis=1) >= separation_mm
    close = np.linalg.norm(points_mm[:, None] - points_mm[None], axis=2) < separation_mm
    if distinct is not None:
        close &= ~distinct
    return _kept_in_order(free, close)


@numba.njit(cache=True, nogil=True)
def _kept_in_order(free: np.ndarray, close: np.ndarray) -> np.ndarray:
    """The compiled loop of :func:`_separated`: in order, keep each point still ``free`` (n,) bool
    and free no longer the points ``close`` (n, n) bool to it (``free`` is not changed)."""
    n = len(free)
    keep = np.zeros(n, dtype=np.bool_)
    left = free.copy()
    for i in range(n):
        if left[i]:
            keep[i] = True
            for j in range(n):
                if close[i, j]:
                    left[j] = False
    return keep


def _with_foreign_blobs(
    image: np.ndarray,
    lightness: np.ndarray,
    foreground: np.ndarray,
    g: TableGeometry,
    spots: np.ndarray,
    spots_mm: np.ndarray,
    own: np.ndarray,
    blobs: np.ndarray,
    blobs_mm: np.ndarray,
    on_table: Callable[[np.ndarray], np.ndarray],
    apart: Callable[[np.ndarray, np.ndarray], np.ndarray] | None,
    config: ClassicConfig,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``blobs`` and ``blobs_mm`` with the foreign blobs (:func:`_foreign_blobs`) of the highlights'
    balls (``spots``, their own colours ``own``: see :func:`_own_colours`) after them, each centred
    and covered as a blob is and kept ``foreign_separation_mm`` or more from every other
    candidate; and which of those balls hold another's pixels (see :func:`_foreign_blobs`)."""
    foreign, holding = _foreign_blobs(image, lightness, foreground, spots, own, g, config)
    if len(foreign) == 0:
        return blobs, blobs_mm, holding

    def separation_space(points_mm: np.ndarray, points: np.ndarray) -> np.ndarray:
        return points_mm if apart is None else apart(points_mm, points)

    support = foreground | ~g.area
    foreign = _refine(foreign, support, g.radius, g.typical_radius, config)
    radii = _radius_at(g.radius, foreign)
    foreign = foreign[_coverage(support, foreign, config.coverage_radius * radii) >= config.min_coverage]
    foreign_mm = on_table(foreign).reshape(-1, 2)
    others = np.concatenate([spots, blobs]).reshape(-1, 2)
    others_mm = np.concatenate([spots_mm, blobs_mm]).reshape(-1, 2)
    kept = _separated(
        separation_space(foreign_mm, foreign),
        separation_space(others_mm, others),
        config.foreign_separation_mm,
    )
    return (
        np.concatenate([blobs, foreign[kept]]).reshape(-1, 2),
        np.concatenate([blobs_mm, foreign_mm[kept]]).reshape(-1, 2),
        holding,
    )


def _own_colours(
    image: np.ndarray,
    lightness: np.ndarray,
    tophat: np.ndarray,
    foreground: np.ndarray,
    spots: np.ndarray,
    unbodied: np.ndarray,
    g: TableGeometry,
    config: ClassicConfig,
) -> np.ndarray:
    """(n, 4) per highlight's ball (``spots`` (n, 2) px, its centres) its own colour: the median
    chromaticity (B, G, R over their sum plus ``ColourConfig.chroma_floor``) and Lab lightness of
    its foreground within ``foreign_reference_radius`` radii of its highlight, the highlight's
    pixels left out (all taken where none is left); NaN for a ball without a body (``unbodied``)
    and where ``foreign_blobs`` is off (see there)."""
    own = np.full((len(spots), 4), np.nan)
    if not config.foreign_blobs or not len(spots):
        return own
    rows = np.flatnonzero(~unbodied)
    radii = _radius_at(g.radius, spots[rows])
    around = spots[rows] - _highlight_drop(radii, config)
    points = (
        around[:, None] + (config.foreign_reference_radius * radii)[:, None, None] * _disc_offsets()[None]
    )
    ix, iy = _pixel_indices(points.reshape(-1, 2), foreground.shape)
    shape = points.shape[:2]
    bgr = image[iy, ix].reshape(*shape, 3).astype(np.float32)
    used = foreground[iy, ix].reshape(shape) & (
        tophat[iy, ix].reshape(shape) < config.colour.highlight_tophat
    )
    used[~used.any(axis=1)] = True
    chroma = bgr / (bgr.sum(axis=2, keepdims=True) + np.float32(config.colour.chroma_floor))
    values = np.concatenate([chroma, lightness[iy, ix].reshape(*shape, 1).astype(np.float32)], axis=2)
    own[rows] = np.stack([_masked_medians(values[..., c], used) for c in range(4)], axis=1)
    return own


def _foreign_blobs(
    image: np.ndarray,
    lightness: np.ndarray,
    foreground: np.ndarray,
    spots: np.ndarray,
    own: np.ndarray,
    g: TableGeometry,
    config: ClassicConfig,
) -> tuple[np.ndarray, np.ndarray]:
    """Ball centres (k, 2) px of ``image`` in the foreground a highlight's ball (``spots`` (n, 2)
    px, its centres; ``own`` its colour, see :func:`_own_colours`) explains but of a foreign
    colour, lighter than its own (see ``foreign_blobs``), and (n,) which of those balls hold such
    a ball-deep blob: another ball lies over it."""
    holding = np.zeros(len(spots), dtype=bool)
    rows = np.flatnonzero(np.isfinite(own[:, 0]))
    radii = _radius_at(g.radius, spots[rows])
    least = np.pi * (config.min_blob_depth * radii) ** 2
    found = []
    for row, (x, _, below, reach, tall), r, need in zip(
        rows, _explained_shapes(spots[rows], radii, config), radii, least, strict=True
    ):
        ref = own[row]
        margin = round(float(r))
        mask, count = _foreign_pixels(
            image,
            lightness,
            foreground,
            x,
            below,
            reach,
            tall,
            margin,
            ref[:3].astype(np.float32),
            np.float32(ref[3] + config.foreign_lighter),
            np.float32(config.foreign_chroma**2),
            np.float32(config.colour.chroma_floor),
        )
        if count < need:
            continue
        depth = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
        peak = int(np.argmax(depth))
        py, px = divmod(peak, depth.shape[1])
        if config.min_blob_depth * r <= depth.flat[peak] <= config.max_blob_depth * r:
            holding[row] = True
            found.append((x - reach - margin + px, below - tall - margin + py))
    return np.array(found, dtype=float).reshape(-1, 2), holding


@numba.njit(cache=True, nogil=True)
def _foreign_pixels(
    image: np.ndarray,
    lightness: np.ndarray,
    foreground: np.ndarray,
    x: int,
    below: int,
    reach: int,
    tall: int,
    margin: int,
    chroma: np.ndarray,
    least_lightness: np.float32,
    limit: np.float32,
    floor: np.float32,
) -> tuple[np.ndarray, int]:
    """The foreign pixels (see ``ClassicConfig.foreign_blobs``) of the box around the explained
    ellipse centred (``x``, ``below``) with half axes (``reach``, ``tall``), ``margin`` px wider
    on each side (uint8, 1 where foreign, 0 beyond the image), and how many lie in the ellipse:
    foreground, at least ``least_lightness`` light, their chromaticity (B, G, R over their sum
    plus ``floor``) a squared distance ``limit`` or more from ``chroma``."""
    h, w = foreground.shape
    top, left = below - tall - margin, x - reach - margin
    rows, cols = 2 * (tall + margin) + 1, 2 * (reach + margin) + 1
    mask = np.zeros((rows, cols), np.uint8)
    count = 0
    for i in range(rows):
        yy = top + i
        if yy < 0 or yy >= h:
            continue
        for j in range(cols):
            xx = left + j
            if xx < 0 or xx >= w or not foreground[yy, xx]:
                continue
            if lightness[yy, xx] < least_lightness:
                continue
            total = np.float32(floor)
            for c in range(3):
                total += np.float32(image[yy, xx, c])
            far = np.float32(0.0)
            for c in range(3):
                step = np.float32(image[yy, xx, c]) / total - chroma[c]
                far += step * step
            if far < limit:
                continue
            mask[i, j] = 1
            dx, dy = (xx - x) / max(reach, 1), (yy - below) / max(tall, 1)
            if dx * dx + dy * dy <= 1.0:
                count += 1
    return mask, count


def _dark_blobs(
    body: np.ndarray,
    g: TableGeometry,
    found: np.ndarray,
    found_mm: np.ndarray,
    on_table: Callable[[np.ndarray], np.ndarray],
    apart: Callable[[np.ndarray, np.ndarray], np.ndarray] | None,
    config: ClassicConfig,
) -> tuple[np.ndarray, np.ndarray]:
    """Candidates (px of ``body``, and their table mm) that only the ball-body mask holds, no
    candidate found otherwise (``found`` (k, 2) px, ``found_mm``) explaining them: ball-deep blobs
    of pixels darker than ``ball_body_darker_ratio`` times the cloth (see ``dark_blobs``), centred
    and covered on that mask as the foreground's blobs are on theirs, away from the cushions
    (``dark_blob_cushion_mm``), and at least ``blob_separation_mm`` from the found candidates and
    each other (positions from ``apart(points_mm, points)`` when given)."""
    if not config.dark_blobs:
        return np.zeros((0, 2)), np.zeros((0, 2))

    def separation_space(points_mm: np.ndarray, points: np.ndarray) -> np.ndarray:
        return points_mm if apart is None else apart(points_mm, points)

    support = body | ~g.area
    dark = _blob_centres(body, g.area, found, g.radius, g.peak_radius, config)
    dark = _refine(dark, support, g.radius, g.typical_radius, config)
    radii = _radius_at(g.radius, dark)
    dark = dark[_coverage(support, dark, config.coverage_radius * radii) >= config.min_coverage].reshape(
        -1, 2
    )
    dark_mm = on_table(dark).reshape(-1, 2)
    away = ~_near_cushion(dark_mm, config.dark_blob_cushion_mm)
    dark, dark_mm = dark[away], dark_mm[away]
    kept = _separated(
        separation_space(dark_mm, dark), separation_space(found_mm, found), config.blob_separation_mm
    )
    return dark[kept], dark_mm[kept]


def _blob_centres(
    foreground: np.ndarray,
    area: np.ndarray,
    found: np.ndarray,
    radius: np.ndarray,
    peak_radius: float,
    config: ClassicConfig,
) -> np.ndarray:
    """Ball centres in foreground no found ball explains: distance-transform peaks of ball depth
    (local maxima over a window of ``blob_peak_window`` × ``peak_radius`` px). A found ball's
    shadow below it is explained too, except where a blob ``unshadowed_blob_depth`` deep remains
    without it (a ball resting against it from below)."""
    residual = foreground.astype(np.uint8)
    unshadowed = residual.copy()
    outside = (~area).view(np.uint8)
    for x, y, below, reach, tall in _explained_shapes(found, _radius_at(radius, found), config):
        cv2.ellipse(residual, (x, below), (reach, tall), 0.0, 0.0, 360.0, 0, -1)
        cv2.circle(unshadowed, (x, y), reach, 0, -1)
    # Beyond the playing area nothing is known: it is not cloth that ends a blob (a ball against
    # the far cushion rises over the nose line), but no peak is taken there.
    depth = cv2.distanceTransform(np.bitwise_or(residual, outside, out=residual), cv2.DIST_L2, 3)
    if len(found):
        deep = cv2.distanceTransform(np.bitwise_or(unshadowed, outside, out=unshadowed), cv2.DIST_L2, 3)
    else:
        deep = depth
    depth = _blob_depth(depth, deep, area, radius, np.float32(config.unshadowed_blob_depth))
    window = max(3, round(config.blob_peak_window * peak_radius) | 1)
    # A plateau of equal maxima is one peak, at its centroid.
    peaks = local_peaks(depth, window, POSITIVE)
    _, centroids = _sparse_regions_at(peaks, depth.shape)
    if len(centroids) == 0:
        return np.zeros((0, 2))
    h, w = foreground.shape
    xs = _clamp(np.round(centroids[:, 0]).astype(int), w - 1)
    ys = _clamp(np.round(centroids[:, 1]).astype(int), h - 1)
    r = radius[ys, xs]
    ok = (depth[ys, xs] >= config.min_blob_depth * r) & (depth[ys, xs] <= config.max_blob_depth * r)
    xs, ys = xs[ok], ys[ok]
    order = np.argsort(-depth[ys, xs])
    centres = np.stack([xs[order], ys[order]], axis=1).astype(float)
    return centres
