# SPDX-License-Identifier: ISC
# gbench.jq: one report's raw per-call and first-call data as one
# google-benchmark JSON file, for google-benchmark's own comparison tool
# (compare.py, Debian's libbenchmark-tools); bench/compare.sh calls it.
#
#	jq -n --arg dir DIR --slurpfile micro DIR/raw/micro.json
#	    --slurpfile il IL --slurpfile fresh FRESH --slurpfile phases PH
#	    -f bench/gbench.jq
#
# Rows, each with every sample as a repetition (so that compare.py's
# U test sees them all) and their median and mean as aggregates:
#	CONFIG/syscall/CALL, latency/..., compile/...	micro.json, every
#		round pooled (CPU time where the raw data has it)
#	interleave/CONFIG/CALL	interleave-*.json, one sample a round
#	fresh/NAME		fresh-NAME.txt, one sample an exec, µs
#	phases/FLAGS/PHASE	phases-FLAGS.txt, one sample an exec, µs
# IL holds [the interleave-*.json documents], FRESH [[NAME, the file's
# text], ...], PH [[FLAGS, [the file's lines, parsed]], ...]; any may be
# [] (an older report without them).

def median: sort | length as $n |
    if $n == 0 then null
    elif $n % 2 == 1 then .[($n - 1) / 2]
    else (.[$n / 2 - 1] + .[$n / 2]) / 2 end;

# row(name; unit; [[real, cpu], ...])
def row($name; $unit; $s):
    ($s | length) as $n
    | ([range($n) as $i | {name: $name, run_name: $name,
	run_type: "iteration", repetitions: $n, repetition_index: $i,
	threads: 1, iterations: 1, real_time: $s[$i][0],
	cpu_time: $s[$i][1], time_unit: $unit}]
    + ([{agg: "median", real: ($s | map(.[0]) | median),
	    cpu: ($s | map(.[1]) | median)},
	{agg: "mean", real: ($s | map(.[0]) | add / length),
	    cpu: ($s | map(.[1]) | add / length)}]
	| map({name: ($name + "_" + .agg), run_name: $name,
	    run_type: "aggregate", aggregate_name: .agg,
	    aggregate_unit: "time", repetitions: $n, threads: 1,
	    iterations: $n, real_time: .real, cpu_time: .cpu,
	    time_unit: $unit})))
    | select($n > 0)[];

def micro_rows:
    [$micro[0][] | .config as $c | .results[]
	| select(.samples and (.samples | length) > 0)
	| {name: (if $c == "latency" then .name else $c + "/" + .name end),
	    unit,
	    # CPU time per call where there is one: the latency rows are
	    # manual (forked) times, their CPU time is the parent's
	    s: ([.samples, (if (.name | startswith("syscall/")) then
		(.cpu_samples // .samples) else .samples end)]
		| transpose)}]
    | group_by(.name)[]
    | row(.[0].name; .[0].unit; [.[].s[]]);

def il_rows:
    $il[0][] | .calls[] as $c
    | $c.results | to_entries[]
    | row("interleave/" + .key + "/" + $c.call; "ns";
	[.value.cpu[] | select(. != null) | [., .]]);

def fresh_rows:
    $fresh[0][] | row("fresh/" + .[0]; "us";
	[.[1] | split("\n")[] | select(length > 0) | split(" ")[0]
	| tonumber | [., .]]);

def phase_rows:
    $phases[0][] | .[0] as $f | .[1] as $lines
    | ($lines[0].phases | keys_unsorted[]) as $p
    | row("phases/" + $f + "/" + $p; "us";
	[$lines[] | .phases[$p][0] | select(. != null) | [., .]]);

# each name's samples and aggregates together (compare.py sorts by
# family_index last, and aggregates after the samples within it)
[micro_rows, il_rows, fresh_rows, phase_rows] as $b
| ($b | map(.run_name) | unique) as $names
| (reduce range($names | length) as $i ({}; .[$names[$i]] = $i)) as $fam
| {context: {executable: $dir,
    date: ($micro[0][0].context.date // null),
    library_build_type: ($micro[0][0].context.library_build_type // null)},
  benchmarks: ($b | map(. + {family_index: $fam[.run_name],
    per_family_instance_index: 0}))}
