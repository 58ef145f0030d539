"""Print seconds per sample and the ratios of a ``--benchmark-json`` file of Algorithm 2.

Usage: ``python tests/benchmarks/summarize.py BENCHMARK_JSON``.
"""

import json
import sys


def summarize(path: str) -> str:
    """A Markdown table of nanoseconds per sample (median over rounds) and the goals' ratios."""
    with open(path) as fh:
        data = json.load(fh)
    per_sample = {}
    for bench in data["benchmarks"]:
        info = bench["extra_info"]
        per_sample[info["variant"]] = bench["stats"]["median"] / info["samples"] * 1e9
    machine = data["machine_info"]
    lines = [
        f"Measured {data['datetime'][:10]} on {machine.get('cpu', {}).get('brand_raw', machine['processor'])}, "
        f"{machine.get('cpu', {}).get('count', '?')} cores, Python {machine['python_version']}.",
        "",
        "| variant | ns per sample | relative to fast |",
        "| --- | ---: | ---: |",
    ]
    for variant in ("reference", "numpy", "fast", "rng_floor"):
        if variant in per_sample:
            ratio = per_sample[variant] / per_sample["fast"]
            lines.append(f"| {variant} | {per_sample[variant]:.3g} | {ratio:.3g} |")
    lines += [
        "",
        f"fast / rng_floor = {per_sample['fast'] / per_sample['rng_floor']:.2f} (goal: at most 1.5); "
        f"numpy / fast = {per_sample['numpy'] / per_sample['fast']:.1f} (goal: at least 10).",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(summarize(sys.argv[1]))
