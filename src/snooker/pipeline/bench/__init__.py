"""Benchmarks of the referee's pipeline on this machine, as ratios to plain decoding in the same run.

What is measured (``scripts/bench.py`` runs it all and writes one JSON document):

- **throughput**: frames per second of the offline pipeline (``VideoAnalysis`` with its fast path +
  the referee, fed by the real frame source read ahead on its own thread, as ``analyze`` reads it)
  against a plain ``cv2.VideoCapture`` read loop over the same frames of the same clips; the ratio
  is the figure (absolute times vary with the machine and its load). What the fast path's gates
  did (frames reused, searched in part, in full) is counted.
- **stages**: wall time per frame of decode, calibration check, detection, tracking (tracker and
  stroke segmenter), referee, and the frame loop's own bookkeeping ("other"), in ms (median, p95).
  The stages are timed by wrapping the very callables ``VideoAnalysis`` calls, so the pipeline
  measured is the real one, in its own order.
- **rest → ruling latency** on synthetic clips whose truth says when the last ball came to rest:
  frames (and ms of video) until the pipeline emits the stroke and its ruling, and the processing
  time spent in between.
- **memory**: peak Python allocations (tracemalloc, in a separate pass: tracing slows the
  pipeline) and the process's peak resident size (``getrusage``).
- **live**: a file source paced at its own frame rate through ``LiveTable`` (the live loop with its
  drop-oldest queue); frames processed and dropped.
- **YOLO network**: ms per forward pass of the detector's network at the input sizes the table crop
  gives (torch, and onnxruntime when an ONNX export can be made), with the model size, and a note
  on what would make it real time.

Times are wall-clock (``time.perf_counter``) in seconds internally and reported in ms.
"""

from snooker.pipeline.bench.latency import (
    RollingClipConfig,
    ScenarioClipConfig,
    SyntheticClip,
    rest_to_ruling,
    rolling_clip,
    scenario_clip,
    synthetic_clips,
)
from snooker.pipeline.bench.run import BenchConfig, format_report, run_bench
from snooker.pipeline.bench.throughput import (
    PipelineRun,
    analyze_clip,
    decode_clip,
    live,
    memory,
    projected_ratios,
    run_pipeline,
    throughput,
)
from snooker.pipeline.bench.timing import (
    BENCH_SCHEMA,
    STAGES,
    BenchError,
    StageClock,
    machine_info,
    peak_rss_mib,
    summarise_ms,
)
from snooker.pipeline.bench.yolo import (
    yolo_input_sizes,
    yolo_network_timing,
    yolo_note,
    yolo_realtime_analysis,
)

__all__ = [
    "BENCH_SCHEMA",
    "STAGES",
    "BenchConfig",
    "BenchError",
    "PipelineRun",
    "RollingClipConfig",
    "ScenarioClipConfig",
    "StageClock",
    "SyntheticClip",
    "analyze_clip",
    "decode_clip",
    "format_report",
    "live",
    "machine_info",
    "memory",
    "peak_rss_mib",
    "projected_ratios",
    "rest_to_ruling",
    "rolling_clip",
    "run_bench",
    "run_pipeline",
    "scenario_clip",
    "summarise_ms",
    "synthetic_clips",
    "throughput",
    "yolo_input_sizes",
    "yolo_network_timing",
    "yolo_note",
    "yolo_realtime_analysis",
]
