"""ci/peerbench_stats.py: the pure parts of ci/peerbench.py, tested by
tests/test_peerbench_stats.py: the rank test, each procedure's decision
rule, the parsers of the peers' outputs, the tally and the table.

Verdicts: "slower" (B slower with the procedure's own significance rule),
"faster", "same", "other" (gate ab failed for a reason other than timing)
and "error" (no decision: the tool failed). A detection is "slower" on a
case with injected work; a false alarm is "slower" or "other" on an
unchanged pair: what fails a user's CI gate. "faster" on an unchanged pair
fails no gate and is counted in a column of its own.
"""

import math

ALPHA = 0.05
# Detection and false-alarm rates a procedure must reach at a budget
# (the target: 90% detection at <= 5% false alarms).
DETECTION_WANTED = 0.9
FALSE_ALARMS_ALLOWED = 0.05
VERDICTS = ("slower", "faster", "same", "other", "error")


def ranks(values):
    """1-based ranks of VALUES, ties given their average rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def tie_sizes(values):
    """How many values share each distinct value of VALUES."""
    counts = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return list(counts.values())


def u_counts(n1, n2):
    """How many of the C(n1+n2, n1) rank arrangements give each U, 0 to
    n1*n2: the coefficients of the Gaussian binomial [n1+n2 choose n1]_q,
    the product over k = 1..n1 of (1 - q^(n2+k)) / (1 - q^k)."""
    size = n1 * n2 + 1
    poly = [1] + [0] * (size - 1)
    for k in range(1, n1 + 1):
        for i in range(size - 1, n2 + k - 1, -1):   # times (1 - q^(n2+k))
            poly[i] -= poly[i - n2 - k]
        for i in range(k, size):                     # divided by (1 - q^k)
            poly[i] += poly[i - k]
    return poly


def exact_sf(u, n1, n2):
    """P(U >= u) under the null hypothesis, without ties."""
    counts = u_counts(min(n1, n2), max(n1, n2))
    u = max(0, math.ceil(u))
    return sum(counts[u:]) / sum(counts)


def normal_sf_two_sided(u, n1, n2, sizes):
    """Two-sided p of U = u (the larger of U1, U2) in the normal
    approximation with tie correction (SIZES: the tie groups) and a
    continuity correction of 1/2."""
    n = n1 + n2
    tie_term = sum(t ** 3 - t for t in sizes)
    var = n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1)))
    if var <= 0:
        return 1.0
    z = (u - n1 * n2 / 2 - 0.5) / math.sqrt(var)
    return math.erfc(z / math.sqrt(2))


def mann_whitney(a, b):
    """Two-sided Mann-Whitney U test of samples A and B: (U of A, p).
    The rule of scipy 1.10's mannwhitneyu(method="auto"), which
    Google Benchmark's compare.py calls: the exact distribution when
    there are no ties and one sample has at most 8 values, else the
    normal approximation with tie and continuity correction; p is twice
    the upper tail of max(U1, U2), at most 1."""
    n1, n2 = len(a), len(b)
    if n1 == 0 or n2 == 0:
        return None, 1.0
    both = list(a) + list(b)
    r = ranks(both)
    u1 = sum(r[:n1]) - n1 * (n1 + 1) / 2
    u = max(u1, n1 * n2 - u1)
    sizes = tie_sizes(both)
    if (n1 <= 8 or n2 <= 8) and max(sizes) == 1:
        p = 2 * exact_sf(u, n1, n2)
    else:
        p = normal_sf_two_sided(u, n1, n2, sizes)
    return u1, min(1.0, max(0.0, p))


def mean(xs):
    return sum(xs) / len(xs)


def median(xs):
    s = sorted(xs)
    mid = len(s) // 2
    return s[mid] if len(s) % 2 else (s[mid - 1] + s[mid]) / 2


def rank_verdict(a, b, center, alpha=ALPHA):
    """B against A by the two-sided rank test at ALPHA, the direction by
    CENTER (mean or median) of each side: slower, faster or same."""
    if len(a) < 2 or len(b) < 2:
        return "error"
    _, p = mann_whitney(a, b)
    if p >= alpha:
        return "same"
    return "slower" if center(b) > center(a) else "faster"


def hyperfine_samples(doc):
    """The wall seconds of every run of both commands of hyperfine's
    --export-json DOC: (A's, B's)."""
    results = doc["results"]
    return results[0]["times"], results[1]["times"]


def hyperfine_verdict(doc, alpha=ALPHA):
    """hyperfine's decision: its runs' times by the rank test, the
    direction by its reported means."""
    a, b = hyperfine_samples(doc)
    return rank_verdict(a, b, mean, alpha)


def compare_py_lines(text, name):
    """From compare.py's `benchmarks A B` output TEXT, the fields of
    benchmark NAME's U-test line and mean line: {"pvalue": [time p, cpu
    p], "mean": [time change, cpu change, ...]} (what is absent is left
    out: below 2 repetitions there is no U test)."""
    out = {}
    for line in text.splitlines():
        fields = line.split()
        if len(fields) < 3:
            continue
        for suffix in ("pvalue", "mean"):
            if fields[0] == "%s_%s" % (name, suffix):
                out[suffix] = [float(f) for f in fields[1:3]]
    return out


def compare_py_verdict(text, name, alpha=ALPHA):
    """compare.py's decision on NAME: its U test's p-value of the time
    column below ALPHA (as compare.py colours it), the direction by the
    sign of the relative change of the means (B - A) / A."""
    fields = compare_py_lines(text, name)
    if "pvalue" not in fields or "mean" not in fields:
        return "error"
    if fields["pvalue"][0] >= alpha:
        return "same"
    return "slower" if fields["mean"][0] > 0 else "faster"


def gate_verdict(exit_code, result):
    """gate ab's decision from its exit code and --json RESULT: slower
    when a timing series failed, other when it failed on something else,
    faster when a timing series improved, error on any exit but 0 and 1."""
    if exit_code not in (0, 1) or not result:
        return "error"
    timing = [s for s in result.get("series", []) if s.get("class") == "timing"]
    if exit_code == 1:
        failed = any(s.get("verdict") == "fail" for s in timing)
        return "slower" if failed else "other"
    if any(s.get("verdict") == "improved" for s in timing):
        return "faster"
    return "same"


def ratio_change(a, b, center):
    """B's CENTER (mean or median) against A's, minus 1; None when A's is 0."""
    ca = center(a)
    return center(b) / ca - 1 if ca else None


def hyperfine_change(doc):
    """The change hyperfine reports: B's mean time against A's."""
    a, b = hyperfine_samples(doc)
    return ratio_change(a, b, mean)


def compare_py_change(text, name):
    """The change compare.py reports for NAME: the relative change of the
    means' time, or None."""
    fields = compare_py_lines(text, name)
    return fields["mean"][0] if "mean" in fields else None


def gate_change(result, variant, params):
    """The change gate ab measured of VARIANT's PARAMS wall time (its
    "change": the median per-round ratio B/A minus 1), or None."""
    for s in (result or {}).get("series", []):
        if (s.get("variant"), s.get("params"), s.get("metric")) == (variant, params, "wall_ns"):
            return s.get("change")
    return None


def runs_for_budget(budget_s, run_a_s, run_b_s, floor):
    """Runs per side so that one decision takes about BUDGET_S seconds,
    given one run of each side took RUN_A_S and RUN_B_S: budget / (2 x
    the mean run), at least FLOOR."""
    per_run = max((run_a_s + run_b_s) / 2, 1e-6)
    return max(floor, int(budget_s / (2 * per_run)))


def tally_add(tally, key, case, verdict, seconds, change=None):
    """Counts VERDICT of procedure KEY on CASE ("null" or the effect), the
    SECONDS the decision took and the CHANGE of time it measured (B / A -
    1, by its own estimate; None: none)."""
    row = tally.setdefault(key, {}).setdefault(case, {v: 0 for v in VERDICTS})
    row[verdict] += 1
    row.setdefault("seconds", []).append(seconds)
    if change is not None:
        row.setdefault("changes", []).append(change)


def runs_of(row):
    return sum(row[v] for v in VERDICTS)


def alarm_rate(row):
    """False alarms of an unchanged case's ROW: slower and other."""
    n = runs_of(row)
    return (row["slower"] + row["other"]) / n if n else None


def detection_rate(row):
    n = runs_of(row)
    return row["slower"] / n if n else None


def seconds_per_decision(cases):
    """Mean seconds of all decisions of one procedure (every case)."""
    secs = [s for row in cases.values() for s in row.get("seconds", [])]
    return mean(secs) if secs else None


def meets_target(cases, effect):
    """Whether one procedure's CASES reach the wanted detection of EFFECT
    with false alarms allowed."""
    null, hit = cases.get("null"), cases.get(effect)
    if not null or not hit:
        return False
    return (detection_rate(hit) >= DETECTION_WANTED
            and alarm_rate(null) <= FALSE_ALARMS_ALLOWED)


def budget_needed(tally, name, effect):
    """The smallest budget of procedure NAME (keys (NAME, budget) of
    TALLY) that meets the target on EFFECT: (budget, measured seconds per
    decision) or None; a procedure without budgets (gate ab at its
    defaults) has budget None."""
    keys = sorted((k for k in tally if k[0] == name), key=lambda k: k[1] or 0)
    for key in keys:
        if meets_target(tally[key], effect):
            return key[1], seconds_per_decision(tally[key])
    return None


def best_peer(tally, effect, peers):
    """The peer that meets the target on EFFECT in the fewest seconds per
    decision: (name, budget, seconds) or None."""
    found = []
    for name in peers:
        need = budget_needed(tally, name, effect)
        if need:
            found.append((need[1], name, need[0]))
    if not found:
        return None
    seconds, name, budget = min(found)
    return name, budget, seconds


LABELS = {"gate": "gate ab", "hyperfine": "hyperfine", "gbench": "gbench+compare",
          "benchstat": "benchstat-style"}


def key_label(key):
    """A procedure as the table names it: its label, and its budget."""
    name, budget = key
    label = LABELS.get(name, name)
    return label if budget is None else "%s @%gs" % (label, budget)


def case_label(case):
    return "unchanged" if case == "null" else "+%s%%" % case


def percent(x):
    return "-" if x is None else "%.0f%%" % (100 * x)


def row_line(key, n, case, row):
    """One line of the table: procedure KEY with N runs a side on CASE."""
    runs = runs_of(row)
    if case == "null":
        rate = "%s false alarms" % percent(alarm_rate(row))
    else:
        rate = "%s detected" % percent(detection_rate(row))
    secs = row.get("seconds") or []
    changes = row.get("changes") or []
    change = "%+.1f%%" % (100 * median(changes)) if changes else "-"
    return "%-22s %5s %-10s %5d %6d %6d %5d %5d %8.1f %7s  %s" % (
        key_label(key), n if n else "-", case_label(case), runs, row["slower"],
        row["faster"], row["other"], row["error"], mean(secs) if secs else 0.0, change, rate)


def table_lines(tally, keys, cases, runs_n):
    """Every procedure KEYS' row for every case of CASES; RUNS_N: the runs
    a side each key took (None: the tool decides)."""
    out = ["%-22s %5s %-10s %5s %6s %6s %5s %5s %8s %7s  %s" % (
        "procedure", "N", "case", "runs", "slower", "faster", "other", "error",
        "s/decision", "change", "rate")]
    for key in keys:
        for case in cases:
            row = tally.get(key, {}).get(case)
            if row:
                out.append(row_line(key, runs_n.get(key), case, row))
    return out


def needed_lines(tally, names, effects):
    """Per procedure and effect, the seconds per decision of the smallest
    budget that met the target ("-": none of those tried did)."""
    out = ["budget for %.0f%% detection at <= %.0f%% false alarms, in measured seconds per "
           "decision (@ the budget asked; -: none of the budgets tried):" % (
               100 * DETECTION_WANTED, 100 * FALSE_ALARMS_ALLOWED),
           "%-22s" % "procedure" + "".join("%16s" % case_label(e) for e in effects)]
    for name in names:
        cells = []
        for e in effects:
            need = budget_needed(tally, name, e)
            if not need:
                cells.append("-")
            elif need[0] is None:
                cells.append("%.1f s" % need[1])
            else:
                cells.append("%.1f s @%gs" % (need[1], need[0]))
        out.append("%-22s" % LABELS.get(name, name) + "".join("%16s" % c for c in cells))
    return out


def target_line(tally, peers, effect):
    """The issue's target on EFFECT: gate ab meets it at its defaults,
    with no more false alarms than the best peer (the one that meets it
    in the fewest seconds), in at most half that peer's seconds."""
    gate = tally.get(("gate", None))
    if not gate or not meets_target(gate, effect):
        return "target (+%s%%): not met: gate ab does not reach %.0f%% at <= %.0f%% false " \
               "alarms" % (effect, 100 * DETECTION_WANTED, 100 * FALSE_ALARMS_ALLOWED)
    gate_s, gate_fa = seconds_per_decision(gate), alarm_rate(gate["null"])
    best = best_peer(tally, effect, peers)
    if not best:
        longest = max((seconds_per_decision(c) for k, c in tally.items() if k[0] in peers),
                      default=None)
        if longest is None:
            return "target (+%s%%): no peer measured" % effect
        # every peer needs more than LONGEST seconds: at least twice
        # gate ab's, or nothing is known
        if gate_s <= longest / 2:
            return "target (+%s%%): met: no peer reached it within %.1f s a decision, at " \
                   "least twice gate ab's %.1f s" % (effect, longest, gate_s)
        return "target (+%s%%): undecided: no peer reached it within %.1f s a decision; " \
               "gate ab %.1f s: try larger budgets" % (effect, longest, gate_s)
    name, budget, peer_s = best
    peer_fa = alarm_rate(tally[(name, budget)]["null"])
    met = gate_fa <= peer_fa and gate_s <= peer_s / 2
    return "target (+%s%%): %s: gate ab %.1f s a decision, %s false alarms; best peer %s " \
           "%.1f s (budget %gs), %s false alarms" % (
               effect, "met" if met else "not met", gate_s, percent(gate_fa),
               LABELS.get(name, name), peer_s, budget, percent(peer_fa))
