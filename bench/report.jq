# SPDX-License-Identifier: ISC
# report.jq: the numbers of reports/latest.md, as TSV, from reports/raw/.
# bench/report.sh calls it with --arg what TABLE; see each table's head.

def median: sort | length as $n |
    if $n == 0 then null
    elif $n % 2 == 1 then .[($n - 1) / 2]
    else (.[$n / 2 - 1] + .[$n / 2]) / 2 end;
def pct($p): sort | .[((length - 1) * $p) | floor];
def r2: . * 100 | round / 100;
def r1: . * 10 | round / 10;

# syscalls (input: micro.json; $configs, $calls: names, space separated)
#	call config median_ns delta_ns ratio dmin dmax rounds
# median over rounds of each process's median CPU time per call (CPU
# time leaves out the time other tenants of the VM hold the CPU, which
# only ever adds); dmin..dmax are the per-round deltas against the
# untamed process of the same round.
def syscalls:
    . as $all
    | ($configs | split(" ")) as $cfgs
    | def m($c; $call):
	[$all[] | select(.config == $c) | {round} +
	    (.results[] | select(.name == "syscall/" + $call) |
	    {median: (.cpu_median // .median), error})
	    | select(.median != null)];	# a call the config does not hold
    ($calls | split(" "))[] as $call
    | (m("untamed"; $call)) as $base
    | ($base | map(.median) | median) as $b
    | $cfgs[] as $c
    | m($c; $call) as $runs
    | ($runs | map(.median) | median) as $mc
    | [$runs[] | .round as $r | .median -
	(($base[] | select(.round == $r) | .median) // null)] as $d
    | [$call, $c,
	($mc // "-"),
	(if $mc and $b then ($mc - $b) | r1 else "-" end),
	(if $mc and $b then ($mc / $b) | r2 else "-" end),
	($d | if length > 0 then min | r1 else "-" end),
	($d | if length > 0 then max | r1 else "-" end),
	($runs | length)]
    | @tsv;

# latency (input: micro.json)
#	name median_us p10_us p90_us samples insns
# forked samples pooled over all rounds; in-process compile benchmarks:
# the median over rounds of each round's median.
def latency:
    [.[] | select(.config == "latency") | .results[]]
    | group_by(.name)[]
    | .[0].name as $n
    | if ($n | startswith("latency/")) then
	([.[].samples[]] | map(. / 1000)) as $s
	| [$n, ($s | median | r1), ($s | pct(0.1) | r1),
	    ($s | pct(0.9) | r1), ($s | length), "-"]
      else
	(map(.median / 1000)) as $s
	| [$n, ($s | median | r2), ($s | min | r2), ($s | max | r2),
	    ([.[].samples[]] | length), (.[0].insns // "-")]
      end
    | @tsv;

# hyperfine (input: the rounds of one comparison, slurped)
#	label median_ms p10 p90 runs round_medians_ms min_ms
def hyperfine:
    [.[].results[]] | group_by(.command)[]
    | ([.[].times[]] | map(. * 1000)) as $t
    | [.[0].command, ($t | median | . * 1000 | round / 1000),
	($t | pct(0.1) | r2), ($t | pct(0.9) | r2), ($t | length),
	(map(.median * 1000 | . * 1000 | round / 1000 | tostring) |
	join(" ")), ($t | min | . * 1000 | round / 1000)]
    | @tsv;

# hfcdf (input: one comparison's rounds, slurped): label time_ms
def hfcdf:
    [.[].results[]] | group_by(.command)[]
    | .[0].command as $c | [.[].times[]] | sort[] | [$c, . * 1000]
    | @tsv;

# phases (input: one raw/phases-FLAGS.txt, slurped: bench/phases's lines)
#	phase median_us p10_us p90_us median_faults
# each phase of the first tame() over the samples, in the order made,
# then "sum": the per-sample sum of the phases.
def phases:
    . as $all
    | (($all[0].phases | keys_unsorted[]) as $p
	| [$all[].phases[$p]] as $v
	| [$p, ($v | map(.[0]) | median | r1),
	    ($v | map(.[0]) | pct(0.1) | r1),
	    ($v | map(.[0]) | pct(0.9) | r1), ($v | map(.[1]) | median)]
	| @tsv),
    ([$all[].sum] as $s | ["sum", ($s | median | r1), ($s | pct(0.1) | r1),
	($s | pct(0.9) | r1),
	([$all[] | [.phases[][1]] | add] | median)] | @tsv);

# interleave (input: interleave.json, bench/interleave.c)
#	call config floor median_ns ci_lo ci_hi p10 p90 n config_median_ns
#	floor_median_ns
# per call and pair of configurations, the paired differences of the
# rounds (config's batch minus floor's batch of the same round, CPU
# time): their median, a 95% interval of that median from the order
# statistics (the k-th smallest and largest, k = (n - 1.96 sqrt(n)) / 2,
# no assumption on the distribution), and their 10th..90th percentile,
# the spread of one round.
def median_ci:
    sort | length as $n
    | (((($n - 1.96 * ($n | sqrt)) / 2) | floor) | if . < 0 then 0 else . end)
	as $k
    | [.[$k], .[$n - 1 - $k]];
def interleave:
    .calls[] as $c
    | (["allow1", "untamed"], ["allow3", "untamed"], ["tame1", "untamed"],
	["tame3", "untamed"], ["tame1", "allow1"], ["tame3", "allow1"],
	["tame3", "allow3"], ["args1", "allow1"], ["args3", "allow3"],
	["tame1", "args1"], ["tame3", "args3"], ["tame-tmp", "untamed"],
	["tame-tmp-openat2", "untamed"], ["tame-tmp-openat2", "tame-tmp"])
    | .[0] as $a | .[1] as $b
    | select($c.results[$a] and $c.results[$b])
    | [range($c.results[$a].cpu | length) as $i
	| [$c.results[$a].cpu[$i], $c.results[$b].cpu[$i]]
	| select(.[0] != null and .[1] != null) | .[0] - .[1]] as $d
    | select($d | length > 0)
    | ($d | median_ci) as $ci
    | [$c.call, $a, $b, ($d | median | r1), ($ci[0] | r1), ($ci[1] | r1),
	($d | pct(0.1) | r1), ($d | pct(0.9) | r1), ($d | length),
	($c.results[$a].cpu | map(select(. != null)) | median | r1),
	($c.results[$b].cpu | map(select(. != null)) | median | r1)]
    | @tsv;

# attach (input: raw/attach.jsonl slurped: bench/attach's lines)
#	shape length replay_steps median_us p10_us p90_us samples
# then "model": the cost of one replay step in ns (walk-N over skip-N),
# of one instruction in ns (the skip shapes over allow1, less their
# replay steps), the floor
# (allow1) in µs, and allow1's own replay steps.
def attach:
    . as $all
    | ($all[] | [.shape, .len, .steps, (.us | median | r1),
	(.us | pct(0.1) | r1), (.us | pct(0.9) | r1), (.us | length)] | @tsv),
    ((map({key: .shape, value: .}) | from_entries) as $s
	| ($s.allow1.us | median) as $a
	| [$all[] | select(.shape | startswith("walk-")) as $w
	    | $s["skip-" + ($w.shape | ltrimstr("walk-"))] as $k
	    | select($k) | (($w.us | median) - ($k.us | median))
		/ ($w.steps - $k.steps)] as $per_step
	| [$all[] | select(.shape | startswith("skip-"))
	    | ((.us | median) - $a - ($per_step | median)
		* (.steps - $s.allow1.steps)) / (.len - 1)] as $per_insn
	| ["model", (($per_insn | median) * 1000 | r1),
	    (($per_step | median) * 1000 | r2), ($a | r1), $s.allow1.steps]
	| @tsv);

if $what == "syscalls" then syscalls
elif $what == "latency" then latency
elif $what == "hyperfine" then hyperfine
elif $what == "hfcdf" then hfcdf
elif $what == "phases" then phases
elif $what == "interleave" then interleave
elif $what == "attach" then attach
else error("what: " + $what) end
