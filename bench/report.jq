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

# floors (input: micro.json; $calls)
#	call config floor median_ns min_ns max_ns rounds
# what a configuration costs beyond its floor, round by round: each
# round's process median minus the floor process's median of the same
# round, so that the host's drift between rounds cancels.
def floors:
    . as $all
    | def m($c; $r; $call):
	[$all[] | select(.config == $c and .round == $r) | .results[]
	    | select(.name == "syscall/" + $call)
	    | (.cpu_median // .median) | select(. != null)][0];
    ($calls | split(" "))[] as $call
    | (["tame1", "allow1"], ["tame3", "allow1"], ["tame3", "allow3"])
    | .[0] as $c | .[1] as $f
    | [$all[] | select(.config == $c) | .round as $r
	| (m($c; $r; $call)) as $x | (m($f; $r; $call)) as $y
	| select($x != null and $y != null) | $x - $y] as $d
    | select($d | length > 0)
    | [$call, $c, $f, ($d | median | r1), ($d | min | r1), ($d | max | r1),
	($d | length)]
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

if $what == "syscalls" then syscalls
elif $what == "floors" then floors
elif $what == "latency" then latency
elif $what == "hyperfine" then hyperfine
elif $what == "hfcdf" then hfcdf
else error("what: " + $what) end
