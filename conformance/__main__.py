"""``python -m linalgx.conformance``: run NumPy's own tests against linalgx."""
import argparse
import json
import sys

from .runner import BACKENDS, run


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m linalgx.conformance",
        description="Run NumPy's installed, unmodified numpy.linalg / numpy.fft tests with "
                    "those namespaces replaced by linalgx's. Exit status 1 on any failure, "
                    "error, crash, strict XPASS or missing name; 2 on bad usage.")
    parser.add_argument("--backend", choices=BACKENDS, default="auto")
    parser.add_argument("--suite", choices=["linalg", "fft", "all"], default="linalg",
                        help="'all' skips fft (visibly, not as a failure) while linalgx.fft "
                             "lacks numpy.fft names")
    parser.add_argument("--json", metavar="FILE", help="also write the report as JSON")
    parser.add_argument("--quiet", "-q", action="store_true",
                        help="print only failures and the summary")
    parser.add_argument("--verbose", "-v", action="store_true",
                        help="print each failure's traceback")
    parser.add_argument("-k", metavar="EXPR", help="pytest -k expression selecting tests")
    parser.add_argument("--target", help="module or .py file standing in for linalgx.linalg "
                        "(numpy.linalg itself gives the baseline)")
    parser.add_argument("--fft-target", help="module or .py file standing in for linalgx.fft")
    parser.add_argument("--timeout", type=float, default=120.0,
                        help="per-test limit in seconds (default 120)")
    parser.add_argument("--allow-missing", action="store_true",
                        help="do not fail the run for numpy names the target lacks")
    parser.add_argument("--expected-failures", metavar="FILE",
                        help="expected-failure TOML file (default: the packaged one)")
    parser.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    args = parser.parse_args(argv)
    try:
        report = run(args.backend, args.suite, k=args.k, target=args.target,
                     fft_target=args.fft_target, timeout=args.timeout,
                     expected_failures=args.expected_failures,
                     allow_missing=args.allow_missing,
                     progress=False if args.no_progress else None)
    except (ValueError, RuntimeError) as exc:
        print(f"linalgx.conformance: {exc}", file=sys.stderr)
        return 2
    print(report.to_text(quiet=args.quiet, verbose=args.verbose))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report.to_dict(), f, indent=1)
    return report.exit_code


if __name__ == "__main__":
    sys.exit(main())
