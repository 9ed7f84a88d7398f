#!/usr/bin/env python3
"""The analysis half of scripts/rating-quality-live.sh (docs/RATINGS.md, "Through a running server").

The server keeps each account's rating history (GET /api/ratings/{account}: a point per rated
match, with the match's id, its time and the rating after it). Replaying every account's points in
the order of their matches gives the ratings of the whole field after each rated match, so the
run needs no polling to measure: after how many rated matches per account every account of a
weaker level was rated below every account of the next stronger one, and stayed so.

`watch` polls until the run is done (a bound, or every adjacent pair of levels ordered for
`--stay` matches per account) and prints progress; `report` prints the measurement and exits 1
when an adjacent pair is not ordered at the end. Standard library only.
"""

import argparse
import json
import os
import sys
import time
import urllib.request

NEW_RATING = 1500.0
NEW_DEVIATION = 350.0


def read_accounts(path):
    """(account id, level) in the file's order: weakest level first."""
    with open(path) as f:
        return [tuple(line.split()) for line in f if line.strip()]


def fetch(base, account):
    with urllib.request.urlopen(f"{base}/api/ratings/{account}", timeout=10) as r:
        return json.load(r)


class Replay:
    """The field's ratings after each rated match of one category, from the accounts' histories."""

    def __init__(self, accounts, levels, histories, category):
        self.accounts = accounts
        self.levels = levels
        matches = {}
        for account, _ in accounts:
            for point in histories[account].get("history", []):
                if point["category"] != category:
                    continue
                entry = matches.setdefault(point["match"], {"at": point["at_ms"], "points": []})
                entry["at"] = min(entry["at"], point["at_ms"])
                entry["points"].append((account, point["rating"], point["deviation"]))
        self.final = {}
        for account, _ in accounts:
            mine = next(
                (x for x in histories[account].get("ratings", []) if x["category"] == category),
                None,
            )
            self.final[account] = (
                (mine["rating"], mine["deviation"], mine["matches"])
                if mine
                else (NEW_RATING, NEW_DEVIATION, 0)
            )
        rating = {a: NEW_RATING for a, _ in accounts}
        deviation = {a: NEW_DEVIATION for a, _ in accounts}
        played = {a: 0 for a, _ in accounts}
        # One step per rated match: (mean rated matches per account, fewest, ratings snapshot).
        self.steps = []
        for _, entry in sorted(matches.items(), key=lambda kv: (kv[1]["at"], kv[0])):
            for account, r, d in entry["points"]:
                rating[account], deviation[account] = r, d
                played[account] += 1
            self.steps.append(
                (
                    sum(played.values()) / len(played),
                    min(played.values()),
                    dict(rating),
                    dict(deviation),
                )
            )

    def level_of(self):
        return dict(self.accounts)

    def ordered(self, ratings, weak, strong):
        """Every account of `weak` rated below every account of `strong`."""
        of = self.level_of()
        best_weak = max(r for a, r in ratings.items() if of[a] == weak)
        worst_strong = min(r for a, r in ratings.items() if of[a] == strong)
        return best_weak < worst_strong

    def pairs(self):
        return list(zip(self.levels, self.levels[1:]))

    def pair_history(self, weak, strong):
        """(first step ordered, step from which ordered to the end, ordered at the end); step
        indices into self.steps, None when never."""
        flags = [self.ordered(step[2], weak, strong) for step in self.steps]
        first = next((i for i, f in enumerate(flags) if f), None)
        stayed = None
        for i in range(len(flags) - 1, -1, -1):
            if not flags[i]:
                break
            stayed = i
        return first, stayed, bool(flags and flags[-1])

    def mean_matches(self):
        return self.steps[-1][0] if self.steps else 0.0

    def all_ordered_for(self):
        """Rated matches per account since every adjacent pair has been ordered (0 if not now)."""
        if not self.steps:
            return 0.0
        since = 0
        for weak, strong in self.pairs():
            _, stayed, now = self.pair_history(weak, strong)
            if not now:
                return 0.0
            since = max(since, stayed)
        return self.steps[-1][0] - self.steps[since][0]

    def level_means(self, ratings):
        of = self.level_of()
        return {
            level: sum(r for a, r in ratings.items() if of[a] == level)
            / sum(1 for a in ratings if of[a] == level)
            for level in self.levels
        }


def load(args):
    accounts = read_accounts(args.accounts)
    histories = {a: fetch(args.base, a) for a, _ in accounts}
    return Replay(accounts, args.levels.split(), histories, args.category)


def alive(pids):
    def running(pid):
        try:
            os.kill(pid, 0)
            return True
        except OSError:
            return False

    return any(running(p) for p in pids)


def watch(args):
    with open(args.bots) as f:
        bots = [int(x) for x in f.read().split()]
    start = time.time()
    while True:
        time.sleep(args.poll)
        replay = load(args)
        last = replay.steps[-1] if replay.steps else (0.0, 0, {}, {})
        means = replay.level_means(last[2]) if last[2] else {}
        flags = " ".join(
            f"{w}<{s}:{'yes' if last[2] and replay.ordered(last[2], w, s) else 'no'}"
            for w, s in replay.pairs()
        )
        print(
            f"{time.time() - start:6.0f} s  {len(replay.steps):4d} rated matches, "
            f"{last[0]:5.1f} per account (fewest {last[1]})  "
            + " ".join(f"{lv} {m:6.1f}" for lv, m in means.items())
            + f"  {flags}",
            flush=True,
        )
        if last[0] >= args.matches:
            print(f"done: {args.matches} rated matches per account")
            return
        if replay.all_ordered_for() >= args.stay:
            print(f"done: every adjacent pair ordered for {args.stay} matches per account")
            return
        if time.time() >= args.deadline:
            print("done: the time limit")
            return
        if not alive(bots):
            print("done: every bot has ended")
            return


def report(args):
    replay = load(args)
    steps = replay.steps
    print(f"{len(steps)} rated matches ({args.category}), {replay.mean_matches():.1f} per account")
    print("\nfinal ratings, weakest level first (rating, deviation, rated matches):")
    for level in replay.levels:
        rows = sorted(
            (replay.final[a] for a, lv in replay.accounts if lv == level), key=lambda x: x[0]
        )
        mean = sum(r[0] for r in rows) / len(rows)
        cells = ", ".join(f"{r:.0f}±{d:.0f} ({m})" for r, d, m in rows)
        print(f"  {level}: mean {mean:.0f}; {cells}")
    print("\nadjacent levels: every weaker account below every stronger one")
    ok = True
    for weak, strong in replay.pairs():
        first, stayed, now = replay.pair_history(weak, strong)
        ok &= now

        def at(i):
            if i is None:
                return "never"
            return f"{steps[i][0]:.1f} per account (fewest {steps[i][1]}, match {i + 1})"

        print(f"  {weak} < {strong}: first {at(first)}; for good from {at(stayed) if now else 'not ordered at the end'}")
    # As the in-process measurement counts it: of the pairs of accounts of different levels,
    # the share whose ratings are in the levels' order at the end.
    final = {a: replay.final[a][0] for a, _ in replay.accounts}
    of = replay.level_of()
    rank = {level: i for i, level in enumerate(replay.levels)}
    pairs = [
        (a, b)
        for a in final
        for b in final
        if rank[of[a]] < rank[of[b]]
    ]
    if pairs:
        share = sum(final[a] < final[b] for a, b in pairs) / len(pairs)
        print(f"  pairs of accounts of different levels ordered at the end: {share:.1%}")
    # The levels' means, at a few points of the run.
    print("\ntrajectory: the levels' mean ratings after N rated matches per account")
    print("  N     " + "  ".join(f"{lv:>6}" for lv in replay.levels) + "  ordered pairs")
    next_mark = 5.0
    for i, (mean, _, ratings, _) in enumerate(steps):
        if mean >= next_mark or i == len(steps) - 1:
            means = replay.level_means(ratings)
            pairs = " ".join(
                f"{w}<{s}" for w, s in replay.pairs() if replay.ordered(ratings, w, s)
            )
            print(
                f"  {mean:5.1f} "
                + "  ".join(f"{means[lv]:6.0f}" for lv in replay.levels)
                + f"  {pairs or '-'}"
            )
            while next_mark <= mean:
                next_mark += 5.0
    return 0 if ok else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["watch", "report"])
    parser.add_argument("--base", required=True, help="the server's http://host:port")
    parser.add_argument("--category", default="two", choices=["two", "four"])
    parser.add_argument("--accounts", required=True, help="lines '<account id> <level>'")
    parser.add_argument("--levels", required=True, help="the levels, weakest first: 'L0 L1'")
    parser.add_argument("--matches", type=float, default=60, help="watch: stop at this many per account")
    parser.add_argument("--stay", type=float, default=10, help="ordered for this many per account")
    parser.add_argument("--deadline", type=float, default=0, help="watch: stop at this unix time")
    parser.add_argument("--poll", type=float, default=15, help="watch: seconds between reads")
    parser.add_argument("--bots", help="watch: a file of the bots' pids")
    args = parser.parse_args()
    if args.mode == "watch":
        watch(args)
        return 0
    return report(args)


if __name__ == "__main__":
    sys.exit(main())
