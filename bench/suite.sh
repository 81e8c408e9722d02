#!/bin/sh
# SPDX-License-Identifier: ISC
# suite.sh TEXT DIR: a small test suite for the benchmarks of process
# trees (bench/run.sh): some twenty short commands of the base system on
# TEXT (bench/run.sh's 1 MB text, 60,000 lines) and on files they write
# in DIR, each checked, and a make of bench/suite.mk, as a project's
# `make check` of shell tests would run them.  Every run does the same
# work: what it writes it writes anew.  Exits 1 at the first check that
# fails.
set -e
text=$1 dir=$2
case $text in
/*) ;;
*) text=$PWD/$text ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
cd "$dir"
test "$(wc -l < "$text")" -eq 60000
test "$(grep -c ' 99' "$text")" -gt 0
head -n 2000 "$text" > head.txt
sort head.txt > sorted.txt
sort -c sorted.txt
test "$(sort -u head.txt | wc -l)" -eq 2000
cut -d' ' -f1 head.txt | sort -n | uniq -d > dups.txt
sed 's/some/any/' head.txt > sed.txt
grep -q 'any words' sed.txt
tr '[:lower:]' '[:upper:]' < head.txt > upper.txt
test "$(tail -n 1 upper.txt | cut -d' ' -f2)" = SOME
awk '{ n += $1 } END { print n }' head.txt > sum.txt
test "$(cat head.txt sed.txt | wc -l)" -eq 4000
cmp -s head.txt head.txt
sha256sum head.txt sorted.txt > sums
sha256sum -c --quiet sums
mkdir -p d
cp head.txt d/copy.txt
ls -l d > /dev/null
rm -r d
make -s -B -f "$here/suite.mk"
test -s counts.txt
sort head.txt | diff - sorted.txt > /dev/null
