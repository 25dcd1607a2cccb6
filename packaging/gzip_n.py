#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""gzip_n.py IN OUT: gzip -9n the file IN to OUT (no name, no time: the
output is reproducible).  With a directory IN, every file in it goes to
OUT/NAME.gz."""
import gzip
import os
import sys


def gz(src_path, out_path):
    with open(src_path, "rb") as src, open(out_path, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", compresslevel=9,
                           fileobj=raw, mtime=0) as out:
            out.write(src.read())


src, out = sys.argv[1], sys.argv[2]
if os.path.isdir(src):
    os.makedirs(out, exist_ok=True)
    for old in os.listdir(out):
        os.remove(os.path.join(out, old))
    for name in sorted(os.listdir(src)):
        gz(os.path.join(src, name), os.path.join(out, name + ".gz"))
else:
    gz(src, out)
