"""``vadaorchestra run bank-qa [bank_plus] [--approach A] [--model CONFIG] [--judge CONFIG] [--limit N] [--out DIR]``:
the evaluation of this scenario (the same as ``python -m vadaorchestra.eval bank_qa ...``)."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    from vadaorchestra.eval import main as eval_main

    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0].replace("-", "_") not in ("bank_qa", "bank_plus"):
        args.insert(0, "bank_qa")
    return eval_main(args)


if __name__ == "__main__":
    sys.exit(main())
