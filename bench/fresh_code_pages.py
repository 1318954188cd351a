#!/usr/bin/env python3
"""Drop the page cache of the given files (and of every file under the given folders), so that
the next process that maps them reads their code into newly allocated physical pages.

Why: on the virtual machines we measure, where a binary's code sits in physical memory changed
the speed of small warm calls by up to 2x. A byte-identical copy of gentt_bench ran float32 2^10
(3,5,6,2,0,4,9,7,1,8) through the run-time library at 135-144 GB/s where the original file ran
it at 74-76, in every one of the alternating processes; after the original's page cache was
dropped it ran at 140 too (Zen 5 under KVM, 2026-11-28). Every process of one file shares the
file's cached pages, so repeated runs of one build do not average this out, and a comparison of
two builds can carry it as a bias of one case. bench/run calls this before every gentt_bench
process; do the same between the processes of an A/B comparison.

Only pages that no running process maps are dropped (posix_fadvise POSIX_FADV_DONTNEED); files
that cannot be opened are skipped silently.

    bench/fresh_code_pages.py build/bench/gentt_bench build/bench/sets/gentt
"""
import os
import sys


def files(path):
    if os.path.isdir(path):
        for folder, _, names in os.walk(path):
            for name in names:
                yield os.path.join(folder, name)
    else:
        yield path


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 0 if len(argv) >= 2 else 2
    for path in argv[1:]:
        for name in files(path):
            try:
                fd = os.open(name, os.O_RDONLY)
            except OSError:
                continue
            try:
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            except OSError:
                pass
            finally:
                os.close(fd)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
