#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# tests/adapters/baremetal-arm/image_test.sh - one ctest case: build a QEMU virt image, run it.
#
#   image_test.sh --out DIR/NAME.elf --arch armv7|aarch64 [--lse] [--mmu]
#                 --cpu CPU --smp N [--smp-topology SPEC]
#                 --accel single|multi --expect REGEX
#                 [--timeout SECS] [--expect-status N] [--json]
#                 -- BUILD_ARGS...
#
# BUILD_ARGS (defines and sources) go to build_image.sh; the run goes
# through run_qemu.sh, which requires QEMU's exit status 0 (or N, for a
# test that must fail in a known way) and a line matching REGEX; the console
# is kept as NAME.log.  --json also checks that the console carries one
# valid Google-Benchmark JSON document (the bench image), and writes it
# next to the image as NAME.json.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out="" arch="" cpu="" smp="" topo=() accel="" expect="" timeout=300 json=0 status=0
build_flags=()
while (($#)); do
	case $1 in
	--out) out=$2; shift 2 ;;
	--arch) arch=$2; shift 2 ;;
	--lse | --mmu) build_flags+=("$1"); shift ;;
	--cpu) cpu=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--smp-topology) topo=(--smp-topology "$2"); shift 2 ;;
	--accel) accel=$2; shift 2 ;;
	--expect) expect=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--expect-status) status=$2; shift 2 ;;
	--json) json=1; shift ;;
	--) shift; break ;;
	*) echo "image_test.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
[[ -n $out && -n $arch && -n $cpu && -n $smp && -n $accel && -n $expect ]] || {
	echo "image_test.sh: --out --arch --cpu --smp --accel --expect are required" >&2
	exit 2
}

bash "$here/build_image.sh" --arch "$arch" "${build_flags[@]}" --out "$out" "$@"
bash "$here/run_qemu.sh" --arch "$arch" --cpu "$cpu" --smp "$smp" "${topo[@]}" \
	--accel "$accel" --timeout "$timeout" --expect "$expect" \
	--expect-status "$status" \
	--log "${out%.elf}.log" "$out"

if ((json)); then
	python3 - "${out%.elf}.log" "${out%.elf}.json" <<'PY'
import json, sys
text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
text = text.replace("\r\n", "\n")
begin, end = text.find("BENCH-JSON-BEGIN\n"), text.find("BENCH-JSON-END")
if begin < 0 or end < 0:
    sys.exit("image_test.sh: no BENCH-JSON-BEGIN/END block on the console")
doc = json.loads(text[begin + len("BENCH-JSON-BEGIN\n"):end])
runs = doc.get("benchmarks", [])
if not runs or "context" not in doc:
    sys.exit("image_test.sh: the JSON has no context or no benchmarks")
for b in runs:
    for key in ("name", "iterations", "real_time", "time_unit", "ns_per_round"):
        if key not in b:
            sys.exit("image_test.sh: benchmark entry without %s: %r" % (key, b))
    if b["iterations"] <= 0 or b["real_time"] <= 0:
        sys.exit("image_test.sh: empty measurement: %r" % (b,))
json.dump(doc, open(sys.argv[2], "w"), indent=1)
for b in runs:
    print("%-45s %10d iterations %12.1f ns/round" %
          (b["name"], b["iterations"], b["ns_per_round"]))
print("image_test.sh: %d benchmark entries, JSON in %s" % (len(runs), sys.argv[2]))
PY
fi
