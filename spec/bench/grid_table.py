#!/usr/bin/env python3
"""Tabulates scripts/bench results: strata beside libtcod and rot.js, measured in the same run.

  grid_table.py RESULTS.jsonl
"""
import json
import sys


def main(path):
    recs = [json.loads(l) for l in open(path) if l.strip()]
    def key(r):
        return (r["map"].rsplit(".map", 1)[0], r["algo"], r["conn"])

    peers = {key(r): r for r in recs if r.get("peer") == "libtcod"}
    rot = {key(r): r for r in recs if r.get("peer") == "rot.js"}
    rows = [r for r in recs if r.get("peer") == "strata"]
    order = {"open": 0, "maze": 1, "rooms": 2}
    conns = {"4": 0, "8": 1, "8s": 2}
    algos = {"astar": 0, "dijkstra": 1, "bfs": 2, "greedy": 3}
    rows.sort(key=lambda r: (r["w"], order.get(r["type"], 9), conns[r["conn"]], algos[r["algo"]]))
    print("| map | size | conn | algorithm | strata ms | libtcod ms | libtcod / strata "
          "| rot.js ms | rot.js / strata | strata path | engine | expanded | allocations | strata MB | libtcod MB |")
    print("|---|---|---|---|---:|---:|---:|---:|---:|---|---|---:|---:|---:|---:|")
    for r in rows:
        p = peers.get(key(r))
        q = rot.get(key(r))
        if r.get("optimal"):
            verdict = "optimal"
        elif r.get("valid"):
            verdict = "valid, +%.1f%%" % (100 * (r["cost"] / r["opt"] - 1))
        else:
            verdict = "INVALID: " + r.get("why", "")
        print("| %s | %dx%d | %s | %s | %.2f | %s | %s | %s | %s | %s | %s | %d | %s | %.1f | %s |" % (
            r["type"], r["w"], r["h"], {"8s": "8, diag √2", "8": "8, diag 1"}.get(r["conn"], "4"),
            r["algo"], r["median_ms"],
            "%.2f" % p["median_ms"] if p else "-",
            "%.1f×" % (p["median_ms"] / r["median_ms"]) if p and r["median_ms"] > 0 else "-",
            "%.0f" % q["median_ms"] if q and "median_ms" in q else "-",
            "%.0f×" % (q["median_ms"] / r["median_ms"]) if q and "median_ms" in q and r["median_ms"] > 0 else "-",
            verdict, r.get("engine", "-"), r["expanded"], r.get("allocations_in_timed_searches", "-"), r["peak_rss_mb"],
            "%.1f" % p["peak_rss_mb"] if p else "-"))


if __name__ == "__main__":
    main(sys.argv[1])
