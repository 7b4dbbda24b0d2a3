"""The command line every paired benchmark script takes."""
import argparse
import os


def parse(add_arguments=None):
    """(arguments, the build's bench directory, pairs to run); add_arguments
    adds a script's own to the parser."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="small sizes, one pair: a smoke test")
    parser.add_argument("--json", metavar="PATH",
                        help="also write the budgets' results there (bench/budget_results.py)")
    if add_arguments:
        add_arguments(parser)
    args = parser.parse_args()
    return args, os.path.join(args.build, "bench"), 1 if args.quick else args.pairs
