"""The command line every multi-case test script here shares: `script.py CASE --opt VALUE ...`
runs the script's function case_CASE; ctest gives each case its own test."""
import argparse
import sys


def parse(namespace, options):
    """The arguments (CASE, then each of `options`, all required, with a value) and the function
    case_CASE of `namespace` (a script's globals()) that runs the case."""
    ap = argparse.ArgumentParser()
    ap.add_argument("case")
    for opt in options:
        ap.add_argument(opt, required=True)
    args = ap.parse_args()
    cases = {name[5:]: fn for name, fn in namespace.items() if name.startswith("case_")}
    if args.case not in cases:
        print(f"FAIL: unknown case {args.case} (one of {', '.join(sorted(cases))})", file=sys.stderr)
        sys.exit(1)
    return args, cases[args.case]
