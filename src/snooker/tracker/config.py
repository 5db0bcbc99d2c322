"""Every threshold the tracker and the stroke-event finder use, with its unit.

All distances are table millimetres (CONTRACTS.md frame), all times seconds, speeds mm/s.
Nothing here is tuned to one clip: the defaults follow from the ball size, the pocket size and
the frame rates of ordinary video (25–60 fps).
"""

from __future__ import annotations

from dataclasses import dataclass, field

DEFAULT_CONFUSABLE_COLOURS: tuple[tuple[str, str], ...] = (
    ("red", "brown"),
    ("red", "pink"),
    ("pink", "white"),
    ("yellow", "white"),
    ("yellow", "green"),
    ("green", "blue"),
    ("blue", "black"),
    ("brown", "black"),
    ("green", "black"),
)
"""Colour pairs a detector mixes up in motion blur or shade; a track may take such a detection."""


@dataclass(frozen=True)
class AssociationConfig:
    """How detections are matched to tracks (two passes: predicted gate, then re-association)."""

    gate_base_mm: float = 45.0
    """A detection farther than this from a track's prediction (plus the terms below) is not it."""
    gate_speed_fraction: float = 1.0
    """Extra gate per predicted displacement this frame (fraction of |v|·dt): absorbs collisions."""
    max_ball_speed_mm_s: float = 9000.0
    """The fastest a ball travels (a power shot 6-7 m/s, a hard break-off up to 8.5 m/s as the
    rendered library's ``pack_split`` plays it); bounds the re-association gate, which a struck cue
    ball must stay within to be followed from the strike."""
    reassociation_gate_max_mm: float = 2500.0
    """Cap on the re-association gate for a track missing for a long time (same colour only)."""
    reassociation_min_confidence: float = 0.5
    """Only detections at least this confident may re-find a lost ball far from its prediction."""
    confusion_gate_mm: float = 30.0
    """A detection of a confusable colour is only taken this close to the prediction (never across
    a collision, where the prediction is off and the other ball is right there)."""
    confusion_claimed_confidence: float = 0.9
    """...and, where a ball of the detection's own colour is predicted within its gate of it, not at
    all when the detector named it with at least this confidence (0-1; taken as a name a blurred
    ball of a confusable colour would not be given so surely: not measured beyond the footage's
    checks). At a stun shot the cue ball stops dead where it met the ball, and on the frame of the
    contact their merged blobs put the struck ball's centre (so its prediction) nearer the stopped
    white than the white's own: within the gate above, the struck ball's track took the white,
    named white at 1.0, and the white's track the struck ball, which had run beyond its own gate
    at rest (Task2 clip 4 under the brighter look once the white was centred on its rim, and
    under the magenta tint before: the white lost for the rest of the clip)."""
    confusion_cost_mm: float = 35.0
    """Added cost (as if the detection were this much farther) for a confusable colour."""
    confusable_colours: tuple[tuple[str, str], ...] = DEFAULT_CONFUSABLE_COLOURS
    unnamed_min_speed_mm_s: float = 1000.0
    """A ball moving at least this fast that no named detection continues may continue at a place
    the detector found ball-like but could not name (``BallDetections.unnamed_xy_mm``): motion blur
    mixes a fast ball with the cloth until its colour fits no ball (a struck black at 50 px a
    frame). Slower balls keep their colour, and an unnamed place near them is a mark or a shade..."""
    unnamed_gate_mm: float = 30.0
    """...within this of the ball's prediction, plus ``unnamed_gate_speed_fraction`` of its step
    (tighter than a named detection's gate: such a place has no colour to confirm it)..."""
    unnamed_gate_speed_fraction: float = 0.5
    """...(fraction of |v|·dt)."""
    unnamed_max_lost_s: float = 0.2
    """Only a ball lost at most this long ago continues at unnamed places (beyond, where it went is
    too uncertain for a place without a colour). A ball struck from rest is blurred out on its
    first frames, before its speed is known: it continues where unnamed places on two frames (not
    necessarily in a row: any earlier frame within this time may hold the trail's first place, so
    a stray place between, a hand or another ball's blur, does not hide it) run away from where it
    was lost, fast (``unnamed_min_speed_mm_s``), within reach of it (``max_ball_speed_mm_s``)..."""
    unnamed_trail_max_turn_deg: float = 20.0
    """...and straight: the second step turns from the first by at most this (deg), ..."""
    unnamed_trail_rest_error_mm: float = 18.0
    """...plus, where the first step reaches beyond ``unnamed_trail_line_mm`` of where the ball was
    lost, the angle an error of this (mm) across the step turns it by: the first step starts at a
    resting centre, whose error adds to the blurred ones' (Task2 clip 6 at a low bit rate: the
    black struck at the table's far end, its resting centre read 4.5 px high where a px spans up
    to 8 mm along the table, turns 23 deg on a first step of 151 mm; 26.8 allowed). Nearer, the
    first place may be the ball that struck it, at the contact (a diameter from its centre), whose
    step from the resting place tells nothing of the struck ball's path (Task2 clip 1 at a low bit
    rate: the white's blur 49 mm from the red it hit, the next place 43 deg off that step). The
    value is ``rest_contact_tolerance_mm``: the position errors of two centres, ..."""
    unnamed_trail_line_mm: float = 70.0
    """...and whose line passes within this of where the ball was lost: a ball struck from rest
    runs straight away from its place, while the trail of another ball running past it (struck
    beside it, never found at rest) lies off to its side. The value is a ball's diameter (52.5 mm:
    a ball whose line passed nearer would have hit the ball resting there) and
    ``rest_contact_tolerance_mm`` (the two centres' errors; clip 6's trail above passes 58 mm off
    its resting centre). A trail skips a frame whose unnamed places all repeat the frame before's
    (``unnamed_repeat_mm``: a look handed on is no sighting)."""
    unnamed_trail_against_jump_deg: float = 90.0
    """A ball at rest taken on the next frame to a detection beyond its predicted gate
    (``gate_base_mm``: the re-association pass, reaching as far as a struck ball runs in a frame)
    that has stayed at that place since, follows instead a trail as above that leaves its resting
    place (timed from its last sighting there) more than this far (deg) off the direction of the
    jump: no ball both jumps one way and runs off the other, while the detection it jumped to
    stays put, as something named like it does (the player's bridge hand behind a struck cue ball,
    named white as it blurred out). Within 90 deg a ball the jump was may have stopped at one it
    hit, whose own trail runs on ahead of it."""
    cue_ball_trail_colours: bool = True
    """A new track named a colour the detector mixes up with the cue ball's
    (``confusable_colours``: a white graded yellower than the models' reads as the yellow), while
    no ball of that colour is held by the tracker and the cue ball is held unseen, whose first and
    latest sightings run fast and straight from where the cue ball was last seen (the trail test
    of unnamed places: ``unnamed_min_speed_mm_s``, ``unnamed_trail_max_turn_deg``,
    ``unnamed_trail_line_mm``, within ``max_ball_speed_mm_s``), is the cue ball run off from
    there, named as it blurred out and came back sharp, and its track takes it instead of it
    becoming a ball of its own (Task2 clip 3 under a saturated grading: the cue ball struck from
    rest, unnamed for five frames, then named yellow all the way up the table, the yellow long
    potted, while the cue ball's track stayed where it had rested). A ball of that colour the
    tracker holds is found again by its own track; a colour re-spotted is put down at rest, no
    trail."""
    leap_max_run_speed_mm_s: float = 1000.0
    """A ball found again, after it was unseen, farther from where it was lost than its speed then
    carries it (plus ``gate_base_mm``) leapt there: struck while hidden, it runs on at about the
    speed the leap took, or the sighting was something else named like it (a player's hand on
    the cushion while a referee walked in front of the cue ball). Where the place it leapt to has
    run on slower than this (mm/s) since, and a new track of its colour is then confirmed within
    reach of where it was lost (``gate_base_mm`` plus its speed then, within
    ``LifecycleConfig.long_absence_s``), that track is the ball, found again where it was, and
    its track takes it instead of it being a duplicate (Task2 clip 5, desaturated: the cue ball
    rolling at 0.07 m/s, hidden two frames, taken 780 mm away to a hand that went on at 0.65
    m/s, the cue ball itself a duplicate for a second after it was seen again where it had been).
    The value is ``unnamed_min_speed_mm_s``: slower, a ball is no fast ball. 0: off."""
    rest_contact_tolerance_mm: float = 18.0
    """An object ball at rest moves only when something hits it (the cue strikes only the cue
    ball; a player's hand or cue touching a ball is a foul the referee must see, and the tracker
    still follows a ball it sees pushed along, step by step within its gate). So an object ball
    last seen settled at rest (seen not moving for ``MotionConfig.rest_window_s`` since it was
    last unseen) and unseen since is re-found beyond ``gate_base_mm`` of its resting place only
    once another ball (the cue ball, or a ball it set moving) came within a diameter plus this
    (mm) of that place since: along its steps between two sightings, turning near it (see
    ``rest_reach_turn_deg``), or, unseen while moving, as far as its speed carried it. Then no
    farther from its place than the speed that ball came with carries a ball since the contact
    (a struck ball runs off no faster than its striker), plus ``gate_base_mm``. Before that, a
    detection of its colour far away is something else named like it (a spot, a patch of the
    cloth, another ball's old place: on Task2 clip 11 at a low bit rate a green at rest, unseen
    on frames 12-59 as a compression block flattened its middle, was taken 360 and 1200 mm away
    by such, and the red's contact overruled); the ball stays held where it rested, and such a
    detection starts a track of its own (a duplicate while the ball is held). Unseen for
    ``LifecycleConfig.long_absence_s`` it may turn up anywhere (a person may have moved it); a
    colour re-spotted after a pot is a new track, its potted one gone; a ball seen at rest on the
    frame before and found beyond its gate is judged as before (``_Track.jumped_from``). The
    value is ``StrokeConfig.contact_tolerance_mm``: the position errors of two centres at a
    contact."""
    rest_reach_turn_deg: float = 12.0
    """A moving ball whose direction turned by more than this (deg) at a sighting (from the step
    before it to the step after) met something there (a ball, a cushion) off the straight line
    between its sightings: it went out and back within a step, so it may have reached any resting
    place within a diameter plus ``rest_contact_tolerance_mm`` plus the longer of the two steps of
    that sighting (Task2 clip 3: the cue ball striking the black by the baulk cushion at 4 m/s and
    coming back, its sightings no nearer the black's place than 92 mm). Running straight past a
    ball, it reached it only along its steps. The value is ``StrokeConfig.min_deflection_deg``."""
    push_line_deg: float = 15.0
    """A ball at rest touching another (within a diameter plus ``rest_contact_tolerance_mm``) that
    the cue sets off meets it at once, at a speed no sighting shows (a push, 3.8(b): the cue ball
    creeps on behind the ball it pushed, which may run off many times faster). The struck ball
    leaves along the line of centres at the contact, at up to ``max_ball_speed_mm_s``: it may be
    found within this angle (deg) of the line from the striker's place to its own, which covers
    the centres' position errors and the throw of a contact struck off the line of centres
    (``touching_ball_pushed`` on the overhead camera, seed 1: the red found 57 mm along that line
    two frames after the strike, the white 4 mm on, and taken for a new red). A colour so pushed
    was taken for a second ball of its colour."""
    unnamed_repeat_mm: float = 1.0
    """An unnamed place within this of one on the frame before has not moved: no fast ball (whose
    place moves at least ``unnamed_min_speed_mm_s``·dt a frame, 33 mm at 30 fps) but a mark, or
    the detector's earlier look handed on where it did not look again (a motion-gated detector
    keeps what it found outside the places it searches anew: the blur of a ball since gone on).
    Such a place continues no ball and starts no trail."""


@dataclass(frozen=True)
class MotionConfig:
    """Prediction (alpha-beta filter) and the at-rest / moving decision.

    The rest threshold comes from the measured jitter of balls known to be at rest (every ball on
    the frames before the first stroke of the 25 Bucharest Task2 clips, while the player addresses
    the cue ball; ``scripts/eval_rest_jitter.py``, through the default frame loop). With the
    detector's rim-fitted centres a resting ball's position scatters by 0.5 mm (sd) across the
    table and 1.4 mm along it (a pixel spans more along it); the largest displacement within
    ``rest_window_s`` reaches 6.4 mm at the 99th percentile, 11.8 mm at the 99.9th and 16.5 mm at
    most (4 of 9583 frames above 14 mm: a black ball's centre jumping once at the far end). With
    whole-pixel centres these were 8.0, 20.3 and 23.5 mm (23 frames above 14 mm). Hence
    ``rest_displacement_mm``: above the 99.9th percentile of the jitter, and below the 20 mm a
    ball creeping at 0.1 m/s covers in the window.
    """

    velocity_gain: float = 0.45
    """Velocity gain (the beta of an alpha-beta filter whose alpha is 1: positions are the
    measurements, accurate to a pixel; the filter only smooths the velocity used to predict)."""
    manoeuvre_residual_mm: float = 30.0
    """A residual larger than this is a collision or a cushion: the velocity restarts from the step."""
    rest_window_s: float = 0.2
    """Window over which a ball's displacement decides whether it is moving."""
    rest_displacement_mm: float = 14.0
    """A ball that moved less than this over the window is at rest: above the 99.9th percentile
    (11.8 mm) of the jitter of balls at rest (see the class docstring)."""
    held_velocity_decay_s: float = 0.25
    """A hidden ball's predicted motion fades with this time constant (it is held where it went)."""
    hidden_moving_timeout_s: float = 1.5
    """A ball hidden while moving counts as moving (blocks the end of a stroke) for this long."""
    repeat_min_step_mm: float = 20.0
    """A ball seen on the frame before whose velocity carries it at least this far (mm) by this
    frame is a runner: found again where it was, it shows a repeated picture (below). Well above
    the jitter of a resting ball's centre (6.4 mm at the 99th percentile, see the class docstring)
    plus ``repeat_tolerance_mm``, so that a ball creeping to a stop is not taken for one."""
    repeat_tolerance_mm: float = 5.0
    """A runner (``repeat_min_step_mm``) found within this of its last sighting (mm) is shown
    again as the picture before showed it (a 25 fps broadcast shown at 30 fps repeats one picture
    in six; a running ball does not stop for a frame): it keeps its velocity and place, and the
    frame adds no time to its motion (its last sighting is moved to this frame), instead of the
    still sighting restarting its velocity at zero, after which its next step lies beyond its gate
    and the re-association pass, by distance alone, may give a red running into a resting red the
    resting one's place (Task2 clip 16 at a low bit rate). A repeated picture decoded again is
    exact (the original footage: 384 of the 410 frames whose runners all stayed within 8 mm stayed
    within 1 mm); re-encoded at a low bit rate its centres move by a few mm (380 of 419 within
    5 mm), and another runner's centre may move more (the cue ball's by 15 mm, three pixels, on a
    frame that showed a red again on Task2 clip 19), so each runner is judged on its own. A runner
    is taken so once in a row: found still on the next frame too, it stopped (a stun shot's cue
    ball at a full contact)."""


@dataclass(frozen=True)
class LifecycleConfig:
    """Birth, confirmation, occlusion and disappearance of tracks."""

    confirm_frames: int = 3
    """A new track becomes a ball after this many consecutive detections."""
    confirm_first_frame: bool = True
    """The balls found on the tracker's first frame (the table as the video opens, or as it first
    comes into view) are named at once, on probation: until seen on ``confirm_frames`` frames it is
    dropped when missed more than ``tentative_max_misses`` times, as an unconfirmed track is. The
    video's first frames then show its balls (Task3: 100 of the 169 truth frames missed were
    clips' first three)."""
    tentative_max_misses: int = 1
    """A tentative track missed more often than this is dropped (a false detection)."""
    spawn_min_confidence: float = 0.5
    """Only detections at least this confident may start a new track."""
    spawn_margin_mm: float = 30.0
    """New tracks are only born on the playing area widened by this margin."""
    off_cloth_slack_mm: float = 12.0
    """A detection centred more than this beyond a cushion nose, away from the pocket mouths, is no
    ball on the table (a score graphic, the rail, a hand) and is ignored. Covers calibration error."""
    long_absence_s: float = 3.0
    """A ball unseen this long may turn up anywhere (a person may have moved it); one found sooner
    must be within reach of where it was lost, else the new sighting is a ghost."""
    duplicate_takeover_s: float = 1.0
    """A second track of a unique colour (a duplicate) first seen while that ball's track was
    already unseen, and seen on since, that ball's track still unseen, for this long is the ball
    found again (its track was lost or continued to a wrong place), if the lost ball can be there
    (see ``BallTracker._reachable``; anywhere once unseen for ``long_absence_s``). Short sightings
    elsewhere while the ball is hidden (a hand, a blur) stay duplicates; a duplicate seen while the
    ball's track was seen too (two detections of one colour at once) only takes over once the ball's
    track has been unseen for ``long_absence_s``."""
    unwatched_loss_s: float = 0.25
    """A ball found missing only after the table went unwatched this long (a cut to another camera,
    frames dropped) ran on unseen for the whole gap: it is potted only if it was running straight
    at a pocket's mouth (``unwatched_pot_max_angle_deg``), else held as hidden (a cue ball heading
    for the cushion beside a corner when the view cut away, found behind another ball when it came
    back, is no in-off; near a mouth is not enough, as it is while the table is watched)."""
    unwatched_pot_max_angle_deg: float = 12.0
    """How far (in angle, seen from the ball) a pocket's mouth may lie off the direction it ran in
    when last seen, for a ball missing after an unwatched gap to count as potted there (as
    ``StrokeConfig.vanished_pot_max_angle_deg`` for a hit ball never seen again)."""
    pocket_capture_radius_mm: float = 130.0
    """A moving ball that vanishes within this distance of a pocket mouth is a pot candidate."""
    pot_confirm_s: float = 0.6
    """A pot candidate unseen for this long is potted; seen again sooner, it rattled and stayed out."""
    pot_confirm_at_end_s: float = 0.1
    """At the end of the video a shorter absence suffices (the clip may stop right after a pot)."""
    loss_lookahead_s: float = 0.05
    """Where a vanishing ball is judged: its path from its last position to this far ahead along
    its velocity."""
    pot_min_speed_mm_s: float = 60.0
    """A ball must approach the pocket at least this fast (or lie in the jaws) to count as potted."""
    rattle_speed_ratio: float = 1.0
    """A ball that rattles in a pocket's jaws comes back out no faster than this times its speed
    when it was lost: the jaws and cushions return at most ~0.8 of the speed (their restitution);
    1 leaves the rest for the error of the speed measured over the last frames. Bounds how far
    through the mouth a pot candidate may be found again (a pocket's jaws also hide it as it
    rattles, and a ball hugging the far cushion on its way out may go undetected a few frames)."""
    jaws_radius_mm: float = 55.0
    """A ball that vanishes this close to a pocket's mouth centre is in the jaws, whatever its speed
    (at rest there, see ``jaws_hang_min_s``)."""
    jaws_hang_min_s: float = 0.5
    """A ball seen at rest in a pocket's jaws for at least this long (s) since it was last seen
    moving, and at most ``jaws_hang_max_s``, that then vanishes balanced a moment on the edge and
    fell (3.9(c)): a pot candidate like a running ball, potted once unseen for ``pot_confirm_s``.
    Lost sooner, as it came to rest, it may only have gone undetected there (a red crawling into a
    far corner's jaws on a rendered broadcast clip was lost 0.1 s after it read still, in full
    view): held as hidden."""
    jaws_hang_max_s: float = 2.0
    """...at rest there longer (or never seen moving: a pocket's dark hole named like a ball), it is
    held as hidden (a player leaning over the pocket): a ball that falls by itself after resting a
    while is replaced anyway (3.9(a)). The rules name no time; as
    ``StrokeConfig.edge_drop_moment_s``."""
    jaws_settled_mm: float = 10.0
    """The time at rest in the jaws counts from when the ball settled: since its sightings stayed
    within this distance (mm) of their mean. A ball creeping into the jaws a few mm a frame reads
    at rest (``MotionConfig.rest_displacement_mm`` over ``rest_window_s``) before it stops (a red
    crawling into a corner at 35 mm/s on a rendered overhead clip read at rest 0.5 s before it
    stopped). As ``StrokeConfig.onset_displacement_mm``; a resting centre's jitter (6.4 mm over
    ``rest_window_s`` at the 99th percentile) stays within it of the mean."""
    off_table_band_mm: float = 40.0
    """A fast ball last seen within this distance of (or beyond) a cushion may have left the table."""
    off_table_min_speed_mm_s: float = 800.0
    """Only a ball at least this fast can jump off the table..."""
    off_table_pocket_angle_deg: float = 12.0
    """...and only one not running at a pocket: a ball lost by a cushion whose mouth lies within
    this angle of its direction went on into the pocket or out of sight (a ball off the table is a
    foul; the pot is judged with the stroke, ``StrokeConfig.vanished_pot_max_angle_deg``)."""
    off_table_confirm_s: float = 1.0
    """A ball that may have left the table and stays unseen this long is off the table."""


@dataclass(frozen=True)
class TrackerConfig:
    """All tracker parameters, grouped."""

    association: AssociationConfig = field(default_factory=AssociationConfig)
    motion: MotionConfig = field(default_factory=MotionConfig)
    lifecycle: LifecycleConfig = field(default_factory=LifecycleConfig)


@dataclass(frozen=True)
class StrokeConfig:
    """Stroke segmentation and the events found in a stroke."""

    start_confirm_frames: int = 2
    """The cue ball must be seen moving on this many consecutive sightings to start a stroke..."""
    start_sighting_gap_s: float = 0.2
    """...sightings no more than this apart: a struck cue ball blurred beyond naming is seen on some
    frames and missed on others (found again displaced and running), and the frames it is missed
    on do not break the run; a longer gap does."""
    start_min_step_mm: float = 2.0
    """...each of them at least this far from the sighting before: a ball set moving does not stop
    dead a frame later, but a detected centre corrected once (a hand or the cue had pulled it
    off) jumps and then stays put, and is no stroke (a stroke at 60 mm/s still steps 2 mm a frame
    at 30 fps). A ball that stepped no farther stood still on that frame (a cue ball stunned dead
    into a near ball, and that ball, before it left)."""
    start_centre_slip_mm: float = 105.0
    """...and, while within this distance of its place, each farther from it than any sighting
    before: a detected centre pulled off the ball by the cue tip or the bridge hand slips by up to
    about a ball's width (60 mm on Task2 clip 9, at the far end of a broadcast view where a pixel
    spans 7 mm) and back as the tip feathers, the ball staying put. Farther off (twice a ball's
    diameter) the ball has left its place, even running back towards it off a cushion, and even
    when it is not read as moving (lost to its blur until it met a ball, found again nearly
    stopped)."""
    onset_displacement_mm: float = 10.0
    """A ball has started moving once it is this far from where it rested (for onset times)."""
    clear_departure_onsets: float = 2.0
    """A ball has clearly left its place (not a resting centre's jitter, nor a ball under the
    player's arm) once it is this many ``onset_displacement_mm`` from it: see
    :attr:`clear_departure_mm`."""
    rest_duration_s: float = 0.7
    """A stroke ends when every ball has been at rest this long (longer while a ball rests on the
    edge of a pocket: ``edge_drop_moment_s``)."""
    contact_tolerance_mm: float = 18.0
    """The cue ball touched a ball if its path came within a diameter plus this of it."""
    contact_tolerance_with_deflection_mm: float = 40.0
    """A looser closest-approach tolerance, accepted when the cue ball's path turned there."""
    min_deflection_deg: float = 12.0
    """The cue ball's direction change that confirms a contact under the looser tolerance."""
    departure_heading_s: float = 0.2
    """A ball hit under the looser tolerance must also have set off away from the cue ball: its
    heading is read from its sighting farthest from where it rested within this time after it
    left. A passing ball's blob merging with it shifts its measured centre towards the cue ball
    (a centre that may then stay there, the ball still at rest); six frames at 30 fps take a
    struck ball clear of that shift, and are too short for a cushion to turn it back."""
    passed_by_return_mm: float = 6.0
    """A ball the cue ball passed close by, whose measured centre shifted while their blobs merged
    (towards the cue ball, or split off away from it), was not hit if it is seen back within this
    distance (mm) of where it rested when the stroke ends: even a fine contact moves a ball a few
    cm, and a struck ball does not come back to its place."""
    centre_jump_max_mm: float = 30.0
    """A ball whose measured centre left its place by at most this much (mm), all of it at once as
    the stroke began (its later sightings, as a rule, no farther than the first two after it left,
    beyond ``passed_by_return_mm`` of jitter), was not hit: resting beside the cue ball, their blobs
    merged and its centre was pulled towards it, then corrected as they parted (Task2 clip 8: a
    yellow 11 mm from the cue ball at the far end, 19 mm). Set moving fast enough to cover that
    in a frame, a ball runs on for a metre or more; hit softly it creeps out over many frames."""
    impulse_span_frames: int = 2
    """The cue ball's velocity lost in a contact (the struck ball's direction) is measured over up
    to this many frames before and after it: over one, a centre's error of a pixel or two (several
    mm at the far end of a broadcast table) turns the direction by tens of degrees."""
    max_onset_delay_s: float = 0.12
    """A ball the cue ball reached must start moving within this time, else something else moved it."""
    max_onset_lead_s: float = 0.04
    """A ball may seem to start moving up to this long before the cue ball reaches it: as the fast,
    blurred cue ball arrives, the two blobs merge and the ball's measured centre shifts (one frame
    at 25–30 fps)."""
    first_mover_reach_mm: float = 100.0
    """A ball that moved first stands for the cue ball's first contact where the cue ball's path
    does not show the contact (a power shot blurs the cue ball out of sight): only if the cue
    ball's path (straight across the frames it was unseen) came within a diameter plus this of where
    that ball rested (a resting place may be measured off under the player's arm or cue)..."""
    first_mover_after_contact_s: float = 0.25
    """A ball that clearly set off more than this long (s) after the contact the cue ball's path
    shows was hit after it (by the cue ball later, or by the ball it hit): it does not overrule that
    contact, even where the path there is a guess (Task2 clip 6 at 540 lines: the cue ball missed
    on the frame it hit the black, a red it hit 6.7 s later taken as the first contact)."""
    first_mover_unseen_window_s: float = 0.25
    """...or the cue ball went unseen within this time before that ball clearly set off (a blurred
    cue ball arriving: the contact allowed ``max_onset_delay_s`` before the onset, and a clear
    departure read a few frames after it). A cue ball seen elsewhere then hit nothing there."""
    simultaneous_window_s: float = 0.02
    """Two first contacts no farther apart in time than this are one simultaneous hit (one frame
    at 50 fps)."""
    set_off_with_max_angle_deg: float = 45.0
    """A ball taken as hit at the same instant as another though the cue ball's path missed it by
    more than the tight tolerance set off within this angle of the line from the cue ball's centre
    at the contact through its own: a struck ball leaves along the line of centres (turned by up
    to ~10 degrees by throw and by the contact point read on a frame's chord, on rendered and
    simulated hits), while a neighbour in a pack, set off on the same frame by the balls around
    it, leaves at any angle (52-62 degrees on a rendered break-off at 50 fps). So must a ball
    resting within a diameter plus ``onset_displacement_mm`` of a still cue ball to be read as
    struck by it when the cue ball never runs (stunned dead into it a few mm off; see
    ``StrokeSegmenter._set_off_by_the_cue_ball``)."""
    vanished_pot_min_s: float = 0.6
    """A ball the cue ball hit that is never seen again for this long (and not up to the end of the
    stroke) went down a pocket, if its path leads into one (fast dark balls in motion blur are
    often not detected at all). Below ``rest_duration_s``, so it can be judged when the stroke ends."""
    unwatched_gone_min_s: float = 0.6
    """An object ball seen on the last frame before the table went unwatched in a stroke (a
    camera's drop-out, a cut; ``unwatched_gap_s``), and on no frame since, for at least this long
    of watched time (s) left the table while it was not watched: potted, its pocket unknown (a
    stroke whose contact was not seen shows no path to judge one by). Below ``rest_duration_s``,
    so it can be judged when the stroke ends."""
    steady_sighting_frames: int = 3
    """A vanished ball counts as seen again only on this many frames in a row."""
    vanished_pot_max_angle_deg: float = 12.0
    """How far (in angle, seen from the ball) a pocket mouth may lie off such a ball's estimated
    direction (from the cue ball's lost momentum, 30 fps positions) and still be where it went."""
    vanished_pot_min_impulse_mm_s: float = 60.0
    """...provided the cue ball lost at least this much velocity (mm/s) in the contact: equal
    masses, the struck ball sets off about as fast, and slower than this (``LifecycleConfig.
    pot_min_speed_mm_s``) no ball reaches a pocket. A smaller loss gives no direction: the cue
    ball was not seen to strike it (a held path's velocity change is round-off, 1e-13 to 1e-12
    mm/s, and points anywhere; Task2 clip 14 at a low bit rate: a resting ball's second detection
    beside the cue ball by the baulk cushion, named green, was hit "towards" the baulk-right
    pocket by such a change, an invented pot), and the ball is judged by its own run off alone."""
    vanished_run_max_turn_deg: float = 60.0
    """A hit ball's first run of sightings away from its place (where it was last seen running off,
    the direction its pot is judged by) that lies farther than this (deg, seen from its place) from
    the cue ball's lost momentum is not the ball: a struck ball leaves along the line of centres,
    turned ~10 degrees at most by throw; a run on another side is another thing named like it (a
    dark patch at a cushion named black), and the momentum is the better guide."""
    pressed_run_max_turn_deg: float = 90.0
    """...but a hit ball that rested touching another ball ahead of it (no farther apart than a
    diameter plus ``touching_tolerance_mm``, on the side the course points to: a ball in a pack)
    passes part of the blow on along their line of centres and keeps the rest, square to that line:
    it may leave up to this far (deg) off the course it was struck on, never back towards the cue
    ball's side. Its runs and sightings within this turn are the ball (a red struck out of the pack
    on a rendered break-off ran 43 degrees off the cue ball's lost momentum, read 61 degrees from
    the blurred cue ball's positions; judged by ``vanished_run_max_turn_deg``, its whole track to
    rest was dropped as another thing and a pot invented)."""
    off_course_unseen_mm: float = 150.0
    """A hit ball whose first sighting away from its place lies farther than this from it, and more
    than ``vanished_run_max_turn_deg`` off the course it was struck on (the cue ball's lost
    momentum, else the line of centres), was not seen on its way: that sighting, and every other
    one off its course, is another thing named like it (a dark gap between a player's fingers, a
    pocket's hole, a shadow between reds named black), and the ball vanished where it was struck.
    A struck ball runs out along its course; a ball seen before it covers this much (three frames
    of a 1.5 m/s ball at 30 fps) is seen on it. On the Task2 clips with other looks (brighter,
    magenta, gamma 1.25) the black struck unseen into a pocket was taken on by such spots 760-940 mm
    away, 120-170 degrees off its course, and its pot lost."""
    off_course_sightings: int = 3
    """...judged on its first this many sightings away from its place (see
    ``snooker.tracker.events.unseen_on_its_way``): one of them on its course is the ball seen on its
    way, and the others off it stray sightings, not a ghost taking its track over. On a rendered
    break-off (overhead, seed 4) the red struck out of the pack had its track given the white's
    blurred blob, 340 mm away and 95 degrees off its course, on the first frame it was away, and was
    seen on its course from the next; judged by that sighting alone, its whole run to rest off the
    top cushion was dropped as another thing and the red read off the table."""
    touching_tolerance_mm: float = 6.0
    """Balls at rest no farther apart than a diameter plus this (plus the rounding below) are
    touching: the position errors other than the rounding of image centres. Rendered clips
    (``touching_ball`` seeds 0-9, both cameras) read real touches up to 6.2 mm apart, 3.1 mm beyond
    the rounding alone (overhead seed 6), while cue balls resting 5.5-6.3 mm from a ball read 2.6-5.1
    mm: gaps of a few mm are below what the measurement resolves, and a smaller value drops real
    touches."""
    centre_rounding_px: float = 0.5
    """How far a measured image centre may be off along the line to another ball (px), for each of
    the two, scaled to mm where the balls lie: half a pixel bounds whole-pixel rounding, and is
    about 2.5 sd of the rim-fitted centres' scatter at rest (see ``MotionConfig``: 1.4 mm sd
    along the table, where a pixel spans ~7 mm at the far end of a broadcast view)."""
    touching_rest_sightings: int = 3
    """Whether the cue ball rests against a ball is judged where the two came to rest: on the
    median of their last this many distinct sightings together (the centre distance and the
    millimetres a pixel spans along it; a sighting repeated unchanged, the detections held while
    nothing moved, counts once), not on all the frames since the stroke ended. A cue ball rolling
    up to a ball creeps its last 15 mm at ~35 mm/s, under the rest threshold
    (``MotionConfig.rest_displacement_mm``), on frames when the stroke is already over: averaged
    over them, a touch on a rendered clip read 5.9 mm apart (``touching_ball`` overhead seed 6;
    0.4 mm on its last sightings). The median of three drops one odd sighting (a 960 x 540
    broadcast ``cue_ball_rests_near_ball`` seed 2: 20.5 mm apart, read 10.7 mm, then 2.0 mm on
    the last detections at rest)."""
    touching_gap_px: float = 0.65
    """...and it touches when that median gap is at most this many image pixels (in the mm a pixel
    spans along the line between the two centres, there): what a touch reads. The gap between two
    fitted centres that close is off by up to about a pixel, in pixels whatever the resolution
    (their rims meet; seen at a low camera angle one hides part of the other), so the tolerance
    is in pixels, not mm. Rendered clips (``touching_ball``, ``cue_ball_rests_near_ball``,
    ``two_balls_hit_at_once``, seeds 0-9, both cameras at 1280 x 720 and at 960 x 540):
    touches read at most 0.39 px apart, balls 5.5-25 mm apart at least 0.87 px (a 5.5 mm gap,
    1.85 px near a 1280 x 720 broadcast camera; an 18-20 mm gap, 2-3.5 px at the far end of a
    960 x 540 one, read 1.1 px); this lies halfway. Gaps under about two pixels (6 mm near a 1280
    x 720 broadcast camera, 17 mm at the far end of a 960 x 540 one) are at the limit of what the
    picture resolves. Used where both centres were seen together at rest with their image
    centres; else ``touching_tolerance_mm`` and ``centre_rounding_px`` on the averaged places."""
    touching_moved_mm: float = 20.0
    """A ball the cue ball rested against when it was struck moved with the strike (a push stroke,
    3.8(b); the frame log's ``touching_moved``) once it is seen this far (mm) from its place
    before the cue ball got clear of it (``touching_clear_mm``): twice the onset displacement, as
    ``clear_departure_mm``, beyond a resting centre's jitter (1.4 mm sd, a pixel of up to 9 mm at
    a broadcast's far end). A centre that corrects once as the cue ball's blob leaves it and stays
    (``centre_jump_max_mm``), or is seen back in its place when the stroke ends
    (``passed_by_return_mm``), did not move the ball."""
    touching_clear_mm: float = 20.0
    """...the cue ball has got clear of a ball it rested against once its centre is seen more than
    a diameter plus this (mm) from that ball's place: played away, it gets there on its first frame
    (a cue ball at 1 m/s covers 33 mm a frame at 30 fps); pushing the ball, it follows into its
    place. A ball that first moves on the frame the cue ball is first seen clear moved with it (a
    thin push: both leave together)."""
    touching_moved_within_s: float = 0.15
    """...and it moved with the strike only if it left its place within this time (s) of the
    stroke's start (the cue ball's last sighting at rest): a cue ball hidden by the player as it
    set off is never seen getting clear, and a ball that leaves later (hit by the cue ball back off
    a cushion) was not pushed. A pushed ball sets off at once: on the first frame or two after the
    strike (33-67 ms at 30 fps, 40-80 at 25)."""
    cushion_tolerance_mm: float = 15.0
    """A ball whose centre comes within a radius plus this of a cushion nose, and turns, hit it."""
    preroll_s: float = 2.0
    """How much history is kept while no stroke is played (to find when the cue ball set off)."""
    cushion_rebound_mm: float = 20.0
    """A cushion contact needs the ball to come in and go out at least this far (not detector jitter)."""
    cushion_window_s: float = 0.3
    """…within this time before and after the contact."""
    rest_median_frames: int = 9
    """Between strokes a ball's resting place (the stroke's ``positions.before``, where a contact is
    looked for, where the cue ball sets off from) is the median of its last this many sightings at
    rest: the frame on which the cue ball is struck, already blurred, or a cue tip at it moves one
    sighting by several mm, not the median. Only sightings since it was last seen moving count: a
    ball nudged, or whose detected centre was corrected by more than the jitter (flagged moving,
    ``MotionConfig.rest_displacement_mm``), rests where it is seen now."""
    outside_move_displacement_mm: float = 30.0
    """A ball that moves this far while no stroke is played was moved (by a person or by itself)."""
    max_deceleration_mm_s2: float = 3000.0
    """The hardest a ball running free on the cloth slows down (mm/s^2): sliding friction, mu*g ~
    2 m/s^2, with a margin (``restrike_max_friction_mm_s2`` is the same friction without one: there
    a larger value would miss strikes, here a smaller one would drop strokes). A "stroke" whose cue
    ball, touching nothing (no ball moved, no pot, no cushion), came to rest after a shorter path
    than its fastest step would have carried it at that rate was its detected centre pulled off
    and let go (the cue tip feathering over it at a broadcast's far end: Task2 clip 9 read 555
    mm/s and a 41 mm path, 51 mm at this rate), not a stroke: it is not reported. A cue ball the
    tip truly nudged a few mm reads the same and is missed with it."""
    restrike_max_speed_mm_s: float = 500.0
    """A cue ball no faster than this (over ``start_confirm_frames`` frames) is at rest or nearly:
    struck again while other balls still run, it starts a new stroke."""
    roll_deceleration_mm_s2: float = 100.0
    """A ball rolling on the cloth slows by about this much (mm/s per s: rolling resistance
    mu ~0.01 times g; the rendered clips' physics uses 0.012). A ball hidden while it ran (last
    seen moving, at the speed its sightings over ``vanished_speed_span_s`` show) may still be
    running for its speed over this after it was last seen, less where something lay in its way:
    the cue ball struck then, it is counted moving at the strike (see
    ``StrokeSegmenter._hidden_runners``). A hit ball lost in the open reaches the nearest cushion
    no faster than this slowing leaves it (see ``vanished_off_table_min_speed_mm_s``). It is taken
    as the least a ball running free slows by (sliding, it slows faster): one found again at rest
    a distance s straight on from where it was lost stopped within sqrt(2 s / this) of then (over
    the last t seconds of its run it lost at least this times t of speed)."""
    cushion_return_ratio: float = 0.65
    """The most of its speed into a cushion, or a pocket's jaws, across it that a ball runs back
    off with once it rolls again (restitution ~0.8 less the top spin it carried in: (5e - 2c) / 7
    ~0.43 for the rendered clips' physics, e = 0.8 and half the spin kept; 5e / 7 ~0.6 for a ball
    sliding in with no spin); along it the ball keeps its speed. Bounds how long a ball hidden
    while it ran towards a cushion it could reach may still be running (``roll_deceleration_mm_s2``;
    see ``StrokeSegmenter._roll_time``)."""
    ball_follow_ratio: float = 0.35
    """The most of its speed along the line of centres that an object ball running into another
    keeps once it rolls again (rolling in, it follows through at (2 + 5 (1 - e) / 2) / 7 of it:
    its top spin and what restitution leaves it, 0.30 for the rendered clips' e = 0.95; an object
    ball carries no more top spin than its roll); across that line it keeps its speed. Bounds,
    like ``cushion_return_ratio``, how long a ball hidden while it ran towards a ball in its path
    may still be running."""
    restrike_hidden_max_s: float = 0.12
    """The cue and the player's hand may hide the cue ball struck again for this long (s; three
    frames at 25 or 30 fps, six at 50; never fewer than ``start_confirm_frames`` frames): the tip
    follows through over the ball for a frame or two after the strike, and the ball is blurred on
    the next."""
    restrike_min_speed_gain_mm_s: float = 600.0
    """The cue ball's speed gain (its chord speed over the ``start_confirm_frames`` frames after,
    less its speed before), away from every other ball, that marks it struck again. Only the cue
    can give that much: sliding friction turning screw-back or spin into speed adds at most
    mu*g ~ 2 m/s^2, about 200 mm/s over the 0.1 s the two windows span at 30 fps. A rolling cue
    ball struck back or sideways gains less: its change of velocity is read apart, from lines
    through more sightings (``restrike_fit_sightings``), not from chords (over two-point chords a
    detected centre's jitter changes the velocity by as much on real footage)."""
    unwatched_gap_s: float = 0.25
    """A gap at least this long between two frames of a stroke (the broadcast cut to another
    camera, frames dropped or skipped; the tracker's ``LifecycleConfig.unwatched_loss_s`` for a
    lost ball) leaves what happened in it unseen: the stroke reports the time it was not watched
    (``StrokeEvents.unwatched_s``), and with no contact found the contact was not seen rather than
    missed. A cue ball set off within this time of the table coming into
    view (after such a gap, or at the video's start) may have been struck, and have hit a ball,
    before it did (``StrokeEvents.strike_unseen``)."""
    restrike_cushion_reach_mm: float = 60.0
    """A cue ball that came within this distance (mm) of a cushion (its centre of the line a ball
    touching the cushion has its centre on) in the restrike check's window may have bounced off it
    between two sightings: into the cushion and back out between frames its speed reads low (more
    so where a 25 fps picture is shown twice at 30 fps), and it then seems to set off anew. It is
    not taken for struck again there, unless every ball had come to rest before it set off
    (``restrike_after_rest_s``)."""
    restrike_after_rest_s: float = 0.2
    """A cue ball set off as struck again after every ball of the stroke had been read at rest (none
    moving) for at least this long (s) before, no other ball moving since, was struck after the
    stroke ended: the stroke ends where they came to rest, though sooner than ``rest_duration_s``
    (a player down on the next shot within a second), and the next one starts there. A ball
    bouncing off a cushion between two sightings still reads moving over the tracker's
    ``MotionConfig.rest_window_s`` (this long), so a cushion beside the cue ball (see
    ``restrike_cushion_reach_mm``) then explains nothing: one resting by a cushion (the player's
    body over it jittering its centre, which holds the rest call back) is taken struck again."""
    restrike_fit_sightings: int = 4
    """A rolling cue ball struck back or sideways need not gain speed: its change of velocity tells
    (see ``restrike_min_velocity_change_mm_s``). The velocity on each side of the strike is the
    least-squares line through this many sightings (0.13 s at 30 fps): a two-point chord moves by
    the jitter of both centres over one frame (several mm at the far end of a broadcast view, tens
    of mm/s), a line through four by about a third of that..."""
    restrike_fit_span_s: float = 0.1
    """...and at least as many as span this long (s) at the clip's frame rate (six at 50 fps): a
    line through four sightings at 50 fps spans 0.06 s, over which a detected centre that lags
    behind its ball for a few frames and catches up (a ball crossing the painted baulk line)
    reads as a velocity change as large as a strike's, its sightings still near a straight line."""
    restrike_min_velocity_change_mm_s: float = 450.0
    """The change of the cue ball's fitted velocity (mm/s, as a vector) that marks it struck again,
    nearly at rest (``restrike_max_speed_mm_s``) and away from balls and cushions. Where every
    other test holds, real footage changes it by at most 310 mm/s (the 25 Task2 and 22 Task4
    strokes: Task2 clip 19, a cue ball rolling 125 mm from a ball) and rendered clips not struck
    again by 241 (a centre corrected by 26 mm at the far end); the rendered restrikes at 800-1500
    mm/s that gain less than ``restrike_min_speed_gain_mm_s`` change it by 596-1044 (sliding
    friction takes some of the stroke before the fit sees it)."""
    restrike_max_friction_mm_s2: float = 2000.0
    """...and the change must also exceed what the cloth can do between the two fits' centres
    (mm/s^2): sliding friction turning screw or spin into motion, mu*g with mu ~ 0.2. A strike is
    an impulse; a screw-back accelerating off a contact changes the velocity as much, but over
    the time it slides (a 0.23 s span allows 460 mm/s)."""
    restrike_min_speed_after_mm_s: float = 200.0
    """...the cue ball running off afterwards at least this fast (mm/s): struck, it runs. A ball
    rolling at a few hundred mm/s that the track shows stopped dead (a hand stopping it, a track
    held where the ball was lost) changed its velocity as much, and was not struck."""
    restrike_fit_residual_mm: float = 5.0
    """...each fit's sightings within this RMS distance (mm) of their line: a ball runs on in a
    line before and after a strike, while a detected centre that jumps and comes back (a blob
    merging with another, a cue tip over the ball) or a track that jumps leaves the line by more
    than the jitter (resting centres scatter by 1.4 mm sd along a broadcast table; Task2's
    jumping centres leave it by 7-22 mm)."""
    restrike_meeting_mm: float = 20.0
    """...and the two lines within this distance (mm) of each other at some moment between the
    last sighting before and the first after: struck, the ball was in one place. Sliding friction
    bends the path after the strike (1 cm in 0.1 s at mu*g), and the centres jitter."""
    vanished_off_table_min_speed_mm_s: float = 800.0
    """A ball the cue ball hit at least this fast (its estimated speed off the contact, like
    ``LifecycleConfig.off_table_min_speed_mm_s``) that is never seen again while the stroke runs
    out, its path leading to no pocket, has left the table (a ball driven into a cushion that flew
    off in a blur). Slower, it is taken to be hidden somewhere on the table. So is one seen running
    clear of its place that, at the speed it was last seen at (``vanished_speed_span_s``), slowed
    by ``roll_deceleration_mm_s2``, reaches no cushion this fast: it cannot have jumped."""
    vanished_speed_span_s: float = 0.2
    """The speed a hit ball ran at when last seen is measured along its sightings in this span (s)
    up to its last one (six frames at 30 fps: a centre's jitter of a few mm averages out)."""
    edge_fall_min_rest_s: float = 2.0
    """A ball potted while no stroke is played fell from the edge of the pocket by itself (an
    ``edge_fall``, 3.9(a): replaced, no score) only if it had been seen at rest for at least this
    long (s) before it set off into the pocket. A ball that balances a moment on the edge and then
    falls is potted in its stroke (3.9(c), ``edge_drop_moment_s``, not more than this). The rest is
    counted from when every ball of the stroke before had stopped (a lower bound on the ball's)."""
    edge_fall_mouth_reach_mm: float = 60.0
    """...and only if it rested with its centre within this distance (mm) of the pocket's mouth
    centre: overhanging the drop (the jaws, ``LifecycleConfig.jaws_radius_mm``, 55 mm, with a few mm
    for the resting place's error). A ball resting farther out lies on the flat cloth and cannot
    fall by itself; one that went in from there was moved (a hand, a ball)."""
    edge_fall_clear_mm: float = 50.0
    """...and only if no other ball or track came within a ball diameter plus this (mm) of it from
    the moment it set off until it was lost: something there (a ball rolled against it, a hand
    taking it, read as a track) may have moved it, and the fall is not called an edge fall."""
    edge_drop_moment_s: float = 2.0
    """3.9(c)'s "a moment", which the rules leave to the referee's judgement and name no time for:
    a ball at rest within ``edge_fall_mouth_reach_mm`` of a pocket's mouth when every ball of the
    stroke stopped that falls in less than this long (s) after they stopped balanced there a moment
    and is potted in the stroke (the stroke is kept open for it, beyond ``rest_duration_s``, and its
    jitter meanwhile does not restart the rest). Read as: longer than the 0.7 s the balls take to be
    judged at rest, short enough that a ball resting on the lip while the next player walks round is
    no longer the stroke's. Not more than ``edge_fall_min_rest_s`` (a fall would be both); less,
    a ball falling between the two is neither the stroke's nor an edge fall (3.9(a)) but reported
    potted between strokes with its reason, for the referee to judge."""
    edge_drop_verdict_s: float = 1.0
    """A ball on the edge of a pocket last seen within ``edge_drop_moment_s`` after the balls of
    the stroke stopped may have dropped in it: the stroke is kept open this long (s) after it was
    last seen, for the tracker to say it was potted (``LifecycleConfig.pot_confirm_s``, 0.6 s, with a
    margin for the frames it takes)."""
    edge_fall_lookback_s: float = 0.5
    """How far (s) before it set off the ball's surroundings are looked at for something near it
    (``edge_fall_clear_mm``): a hand or a ball that touched it and drew back just before it moved."""

    @property
    def clear_departure_mm(self) -> float:
        """How far (mm) a ball must be from where it rested to have clearly left it."""
        return self.clear_departure_onsets * self.onset_displacement_mm

    def __post_init__(self) -> None:
        if self.off_course_sightings < 1:
            raise ValueError(f"off_course_sightings must be at least 1, got {self.off_course_sightings}")
        if self.touching_rest_sightings < 1:
            raise ValueError(
                f"touching_rest_sightings must be at least 1, got {self.touching_rest_sightings}"
            )
        if self.vanished_pot_min_impulse_mm_s < 0:
            raise ValueError(
                "vanished_pot_min_impulse_mm_s must not be negative, got "
                f"{self.vanished_pot_min_impulse_mm_s}"
            )
        if self.edge_drop_moment_s > self.edge_fall_min_rest_s:
            raise ValueError(
                f"edge_drop_moment_s ({self.edge_drop_moment_s}) must not exceed edge_fall_min_rest_s"
                f" ({self.edge_fall_min_rest_s}): a fall between them would be the stroke's and an edge fall"
            )
        for name in ("touching_moved_mm", "touching_clear_mm", "touching_moved_within_s"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must not be negative, got {getattr(self, name)}")
        if self.touching_gap_px < 0:
            raise ValueError(f"touching_gap_px must not be negative, got {self.touching_gap_px}")
        if self.rest_median_frames < 1:
            raise ValueError(f"rest_median_frames must be at least 1, got {self.rest_median_frames}")
        if self.start_centre_slip_mm < 0:
            raise ValueError(f"start_centre_slip_mm must not be negative, got {self.start_centre_slip_mm}")
        if self.restrike_fit_sightings < 2:
            raise ValueError(f"restrike_fit_sightings must be at least 2, got {self.restrike_fit_sightings}")
        if self.restrike_cushion_reach_mm < 0:
            raise ValueError(
                f"restrike_cushion_reach_mm must not be negative, got {self.restrike_cushion_reach_mm}"
            )
