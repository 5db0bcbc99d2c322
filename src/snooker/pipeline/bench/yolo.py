"""The YOLO detector's network: ms per forward pass by input size and runtime, and what real time needs."""

from __future__ import annotations

import math
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from snooker.pipeline.bench.timing import Reporter, summarise_ms


def yolo_input_sizes(
    frame_bgr: np.ndarray, view: object, radii_px: tuple[float, ...]
) -> list[dict[str, Any]]:
    """The network input (height, width) the YOLO detector's table crop gives for each ball radius."""
    from snooker.vision.yolo_input import InputConfig, prepare_input

    sizes = []
    for radius in radii_px:
        prepared = prepare_input(frame_bgr, view, InputConfig(target_ball_radius_px=radius))
        height, width = prepared.image.shape[:2]
        sizes.append({"ball_radius_px": radius, "height": int(height), "width": int(width)})
    return sizes


def yolo_network_timing(sizes: list[dict[str, Any]], repeats: int, report: Reporter) -> dict[str, Any]:
    """ms per forward pass of the detector's network (the shipped weights, else its architecture).

    Timing depends on the architecture and input size, not on the trained values, so without
    shipped weights the untrained architecture (``yolo11n`` with 8 classes) is timed and says so.
    """
    from snooker.vision.yolo import DEFAULT_WEIGHTS, YoloConfig
    from snooker.vision.yolo_offline import import_ultralytics

    offline = YoloConfig().offline
    import_ultralytics(offline)
    import torch

    model, source = _yolo_model(DEFAULT_WEIGHTS)
    parameters = int(sum(p.numel() for p in model.parameters()))
    result: dict[str, Any] = {
        "model": source,
        "parameters": parameters,
        "size_fp32_mib": round(parameters * 4 / 2**20, 2),
        "weights_file_mib": round(DEFAULT_WEIGHTS.stat().st_size / 2**20, 2)
        if DEFAULT_WEIGHTS.is_file()
        else None,
        "threads": offline.threads,
        "torch": torch.__version__,
        "sizes": [],
    }
    onnx_path, onnx_note = _onnx_export(model, sizes)
    result["onnxruntime_note"] = onnx_note
    session = _onnx_session(onnx_path, offline.threads) if onnx_path is not None else None
    calls: dict[tuple[int, str], Callable[[], Any]] = {}
    for k, size in enumerate(sizes):
        blob = np.zeros((1, 3, size["height"], size["width"]), dtype=np.float32)
        tensor = torch.from_numpy(blob)
        calls[k, "torch"] = lambda t=tensor: _torch_forward(torch, model, t)
        if session is not None:
            feed = {session.get_inputs()[0].name: blob}
            calls[k, "onnxruntime"] = lambda f=feed: session.run(None, f)
    durations = _interleaved(calls, repeats)
    for k, size in enumerate(sizes):
        entry = dict(size)
        for (index, runtime), values in durations.items():
            if index == k:
                entry[runtime] = summarise_ms(values)
        result["sizes"].append(entry)
        report(
            f"bench: YOLO network {size['height']}x{size['width']}: "
            + ", ".join(f"{r} {entry[r]['median_ms']:.0f} ms" for r in ("torch", "onnxruntime") if r in entry)
        )
    if onnx_path is not None:
        onnx_path.unlink(missing_ok=True)
    return result


def _torch_forward(torch: Any, model: Any, tensor: Any) -> Any:
    with torch.inference_mode():
        return model(tensor)


def _interleaved(calls: dict[Any, Callable[[], Any]], repeats: int) -> dict[Any, list[float]]:
    """Seconds per call of each of ``calls``, taking turns (so a change in load hits all alike);
    each is called once first as a warm-up (allocations, kernel selection), not counted."""
    for call in calls.values():
        call()
    durations: dict[Any, list[float]] = {key: [] for key in calls}
    for _ in range(repeats - 1):
        for key, call in calls.items():
            started = time.perf_counter()
            call()
            durations[key].append(time.perf_counter() - started)
    return durations


def _yolo_model(weights: Path) -> tuple[Any, str]:
    if weights.is_file() and weights.suffix == ".pt":
        from ultralytics.nn.tasks import load_checkpoint

        model, _ = load_checkpoint(str(weights), device="cpu", fuse=True)
        return model.float().eval(), f"shipped weights {weights.name}"
    from ultralytics.nn.tasks import DetectionModel

    from snooker.balls import BALL_NAMES

    model = DetectionModel("yolo11n.yaml", nc=len(BALL_NAMES), verbose=False).float().eval().fuse()
    return model, "yolo11n architecture, untrained (no shipped weights yet; timing does not depend on them)"


def _onnx_export(model: Any, sizes: list[dict[str, Any]]) -> tuple[Path | None, str]:
    """Export ``model`` to a temporary ONNX file with a dynamic input size (needs the onnx package)."""
    try:
        import onnx  # noqa: F401  (the exporter needs it; checked here for a clear note)
        import onnxruntime  # noqa: F401
    except ImportError as exc:
        return None, f"not measured: {exc.name} is not installed (the ONNX export needs it)"
    import torch

    handle, name = tempfile.mkstemp(suffix=".onnx")
    os.close(handle)
    path = Path(name)
    sample = torch.zeros(1, 3, sizes[0]["height"], sizes[0]["width"])
    try:
        with torch.no_grad():
            torch.onnx.export(
                model,
                sample,
                str(path),
                dynamo=False,
                input_names=["images"],
                output_names=["output"],
                dynamic_axes={"images": {2: "height", 3: "width"}},
            )
    except Exception as exc:  # an exporter problem is a note in the results, not a failed benchmark
        path.unlink(missing_ok=True)
        return None, f"not measured: ONNX export failed ({type(exc).__name__}: {exc})"
    return path, "measured (exported from the same model, CPU execution provider)"


def _onnx_session(path: Path, threads: int) -> Any:
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    return onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def yolo_realtime_analysis(
    network: dict[str, Any], rest_fraction: float | None, realtime_fps: float, every_nth: tuple[int, ...]
) -> dict[str, Any]:
    """What would bring the YOLO network under the real-time budget, from the measured numbers.

    For each input size and runtime: ms per frame, the speed-up still needed, and the mean ms per
    frame when the network runs on every frame while balls move but only every Nth frame while
    every ball rests (``rest_fraction`` of frames, measured by the classical pipeline's tracker).
    """
    budget_ms = 1000.0 / realtime_fps
    rows = []
    for size in network.get("sizes", []):
        for runtime in ("torch", "onnxruntime"):
            if runtime not in size:
                continue
            ms = size[runtime]["median_ms"]
            row: dict[str, Any] = {
                "input": f"{size['height']}x{size['width']}",
                "ball_radius_px": size["ball_radius_px"],
                "runtime": runtime,
                "ms_per_frame": ms,
                "min_ms": size[runtime].get("min_ms"),
                "speedup_needed": round(ms / budget_ms, 2),
            }
            if rest_fraction is not None:
                row["every_nth_at_rest_ms"] = {
                    str(n): round(ms * ((1.0 - rest_fraction) + rest_fraction / n), 1) for n in every_nth
                }
            rows.append(row)
    return {"budget_ms": round(budget_ms, 2), "rest_fraction": rest_fraction, "options": rows}


def yolo_note(network: dict[str, Any], realtime: dict[str, Any], run_share: float | None) -> str:
    """What the measured numbers say about the YOLO path in real time, in a few sentences.

    ``network``: :func:`yolo_network_timing`'s result; ``realtime``: :func:`yolo_realtime_analysis`'s;
    ``run_share``: the fraction of frames on which the fast path ran the network (None: unknown).
    """
    budget = realtime["budget_ms"]
    options = realtime.get("options", [])
    if not options:
        return "YOLO network not timed."
    size = network.get("weights_file_mib")
    model = f"{network['model']} ({network['parameters'] / 1e6:.1f} M parameters"
    model += f", {size} MiB of weights)" if size is not None else ")"
    own = [o for o in options if o["ball_radius_px"] == options[0]["ball_radius_px"]]
    timings = ", ".join(f"{o['ms_per_frame']:.0f} ms with {o['runtime']}" for o in own)
    sentences = [
        f"{model}: at the detector's own input ({own[0]['input']}, ball radius "
        f"{own[0]['ball_radius_px']:.0f} px) a frame takes {timings} — "
        f"{own[0]['ms_per_frame'] / budget:.1f}x the {budget:.1f} ms of a frame at "
        f"{1000.0 / budget:.0f} fps."
    ]
    best = min(options, key=lambda o: o["ms_per_frame"])
    if best["ms_per_frame"] <= budget:
        sentences.append(
            f"Real time needs {best['runtime']} at {best['input']} (ball radius "
            f"{best['ball_radius_px']:.0f} px): {best['ms_per_frame']:.0f} ms."
        )
    else:
        every = math.ceil(best["ms_per_frame"] / budget)
        sentences.append(
            f"The fastest measured, {best['runtime']} at {best['input']} (ball radius "
            f"{best['ball_radius_px']:.0f} px), takes {best['ms_per_frame']:.0f} ms: still "
            f"{best['ms_per_frame'] / budget:.1f}x; real time also needs the network on every "
            f"{every}th frame at most while balls move, or a smaller/quantised network or a GPU."
        )
    if run_share is not None:
        sentences.append(
            f"The fast path ran the network on {run_share:.0%} of the frames here (only where the "
            "picture changed): it rests with the balls, but during a stroke every frame changes."
        )
    return " ".join(sentences)
