#!/usr/bin/env bash
# The server wait profile (--wait-profile) on a real Firebird: what its monitoring tables
# tell (MON$STATEMENTS: a statement running, or waiting for the client to fetch, or none),
# sampled 50 ms apart whatever is asked (each sample is a monitoring snapshot of the whole
# engine, in a transaction of its own), both said in the result and as warnings; each
# sample sees both terminals, the shares sum to 1, and the sessions are told apart from
# the sampler's own.
source "$(dirname "$0")/common.bash"
source "$(dirname "$0")/firebird.bash"
fb_url
url=$FB_URL
"$DBGAUGE" load --db "$url" --workload tpcb --scale 1 --drop -q > /dev/null || fail "load"
"$DBGAUGE" run --db "$url" -w tpcb -c 2 -T 4 -P 1 --wait-profile 10ms --json "$TMP/r.json" > "$TMP/r.out" 2>&1 \
  || { cat "$TMP/r.out"; fail "run"; }
grep -q -- "--wait-profile: sampled every 50 ms, not 10 ms" "$TMP/r.out" || fail "no warning about the interval: $(cat "$TMP/r.out")"
grep -q -- "--wait-profile: Firebird's monitoring tables tell" "$TMP/r.out" || fail "no warning about what it lacks"
python3 - "$TMP/r.json" <<'PY' || fail "wait profile"
import json, sys
d = json.load(open(sys.argv[1]))
wp = d["wait_profile"]
assert wp["available"] and wp["source"].startswith("MON$") and wp["interval_ms"] == 50, wp
assert wp["failed"] == 0 and wp["unseen"] <= 0.005 * wp["samples"] * d["run"]["terminals"] and wp["samples"] >= 20, wp
t = wp["types"]["tpcb"]
print("tpcb: %s" % {k: round(v, 3) for k, v in t["events"].items()})
assert set(t["classes"]) <= {"CPU", "Client"} and abs(sum(t["classes"].values()) - 1) < 1e-9, t
# a fresh snapshot each sample: a frozen one (the first, taken before the terminals
# connected) would show none of them, and every sample would count them as unseen
T = d["run"]["terminals"]
assert 0.95 * wp["samples"] * T <= t["samples"] <= wp["samples"] * T, (wp["samples"], t["samples"])
PY
echo "ok"
