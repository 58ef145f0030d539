"""Print the figures of a ``--benchmark-json`` file: Algorithm 2's seconds per sample and
ratios, or the whole catalog's search against its budget.

Usage: ``python tests/benchmarks/summarize.py BENCHMARK_JSON``.
"""

import json
import sys


def _machine(data: dict) -> str:
    machine = data["machine_info"]
    return (f"Measured {data['datetime'][:16]} UTC on {machine.get('cpu', {}).get('brand_raw', machine['processor'])}, "
            f"{machine.get('cpu', {}).get('count', '?')} cores, Python {machine['python_version']}.")


def summarize_search(data: dict) -> str:
    """The seconds of each statement's search, their serial sum and the quick profile's budget."""
    info = data["benchmarks"][0]["extra_info"]
    lines = [_machine(data), "", "| statement | search (s) |", "| --- | ---: |"]
    lines += [f"| {claim} | {seconds:.2f} |" for claim, seconds in info["seconds"].items()]
    verdict = "within" if info["total_s"] <= info["budget_s"] else "OVER"
    lines += ["", f"{info['statements']} statements, {info['total_s']:.1f} s in all (serial, as a run builds them): "
              f"{verdict} the quick profile's budget of {info['budget_s']:.0f} s."]
    return "\n".join(lines)


def summarize(path: str) -> str:
    """A Markdown table of nanoseconds per sample (median over rounds) and the goals' ratios,
    or of the searches (:func:`summarize_search`)."""
    with open(path) as fh:
        data = json.load(fh)
    if [b["name"] for b in data["benchmarks"]] == ["test_search_of_the_whole_catalog"]:
        return summarize_search(data)
    per_sample = {}
    for bench in data["benchmarks"]:
        info = bench["extra_info"]
        per_sample[info["variant"]] = bench["stats"]["median"] / info["samples"] * 1e9
    lines = [
        _machine(data),
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
