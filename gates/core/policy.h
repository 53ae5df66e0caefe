/* policy.h: the rules a run was decided by, recorded in its result.
 *
 * The run fills a run_policy from its options (run/run_options.c); the
 * comparison (decide/) reads every threshold from it and the renderers
 * (report/) describe it from the result alone, so a result file loaded
 * later (`gate merge`, `gate diff`) says what its run used, not what this
 * gate's defaults are. The JSON files carry it as the "policy" object
 * (docs/json-format.md); files written before it was recorded load with
 * the defaults below and RECORDED false.
 */
#ifndef GATE_POLICY_H
#define GATE_POLICY_H

#include <stdbool.h>
#include <stddef.h>

/* The defaults, each with where its value comes from. */

/* Family-wise error rate of the timing tests. */
#define POLICY_ALPHA 0.05
/* Smallest timing change that fails against a baseline, where
 * memory-heavy regions drift by far more than the code's changes over
 * minutes (docs/noise.md, "Two kinds of noise"), and in `gate ab`, whose
 * sides run in the same rounds: there the floor, not the noise, limits
 * what 61 rounds catch, so a lower floor catches smaller changes with no
 * more false alarms (docs/noise.md, "Rounds"; measured:
 * docs/measurements.md#the-minimum-effect-2-against-3). */
#define POLICY_MIN_EFFECT 0.25
/* Smallest slowdown of the code as a whole (decide/reference.h: most
 * groups beyond the most the reference workload lets the machine have
 * slowed) that fails against a baseline. Many groups read at once against
 * a machine the reference bounds are not one series against its own
 * drift, so the whole needs less than one series alone (docs/noise.md,
 * "The code slowed as a whole"; measured:
 * docs/measurements.md#the-reference-workload-a-slowdown-of-every-kernel-against-a-baseline).
 * The smaller of this and the minimum effect applies. */
#define POLICY_MIN_EFFECT_WHOLE 0.10
#define POLICY_MIN_EFFECT_AB 0.02
/* A timing tolerance is at least this many times the drift between the
 * baseline's batches and its history: batches taken within a minute see
 * less of the machine's drift than a run taken hours later does. */
#define POLICY_DRIFT_FACTOR 3.0
/* A timing series whose tolerance exceeds this is advisory: reported,
 * never failing, since a change that size cannot be told from drift. */
#define POLICY_ADVISORY_TOLERANCE 0.5
/* Exact counts: relative tolerance. */
#define POLICY_EXACT_TOLERANCE 0.01
/* Near-exact counts (page faults, peak bytes): relative tolerance on top
 * of the baseline's spread and an absolute floor: a fault count moves by a
 * few pages with ASLR and heap layout, a peak by a few blocks per thread
 * (one page). */
#define POLICY_NEAR_TOLERANCE 0.10
#define POLICY_NEAR_FLOOR 16.0
#define POLICY_NEAR_FLOOR_BYTES 4096.0
/* Timing counters in "count" units (context switches) below this median
 * are too few events to compare as a ratio. */
#define POLICY_MIN_EVENTS 100.0
/* Cost pass counts: 0.2% of the baseline (or 3 x the spread of its cost
 * samples when larger): callgrind's counts of a single-threaded region
 * repeat exactly, a threaded one's within a few parts per million
 * (docs/cost.md, "Determinism"); 0.2% still catches +1% of work. Simulated misses of
 * a threaded region move by a few percent with the interleaving: 10% and
 * 64 per thread. Threaded instruction counts get 4096 per thread (thread
 * start and first allocation follow the interleaving). A cost series whose
 * baseline samples differ by more than 10% (x the drift factor) is
 * advisory. */
#define POLICY_COST_TOLERANCE 0.002
#define POLICY_COST_MISS_TOLERANCE 0.10
#define POLICY_COST_MISS_FLOOR 64.0
#define POLICY_COST_THREAD_SLACK 4096.0
#define POLICY_COST_ADVISORY 0.10

/* What may fail a run (--gate): the classes of comparison against the
 * stored baseline or gate ab's side A. A class left out is still measured,
 * compared and reported, as information. Declared expectations (claims
 * within one run, on paired per-round values) gate whatever this says.
 * counts: the exact and near-exact counts (heap_*, proc_*, page faults, peak
 * bytes); cost: the cost pass's cost_* counts; timing: wall time and the
 * hardware counters. */
#define POLICY_GATE_COUNTS 1u
#define POLICY_GATE_COST 2u
#define POLICY_GATE_TIMING 4u
#define POLICY_GATE_DETERMINISTIC (POLICY_GATE_COUNTS | POLICY_GATE_COST)
#define POLICY_GATE_ALL (POLICY_GATE_DETERMINISTIC | POLICY_GATE_TIMING)
/* `gate run`'s default: against a stored baseline, timing moves with the
 * machine's load and drift (docs/noise.md, "What gates"), counts and cost
 * do not; `gate ab` measures both sides in the same rounds, so its timing
 * gates too (POLICY_GATE_ALL). */
#define POLICY_GATE_RUN_DEFAULT POLICY_GATE_DETERMINISTIC
#define POLICY_GATE_AB_DEFAULT POLICY_GATE_ALL

/* How `gate ab` takes its samples when neither --duet nor --interleaved
 * is given (sample/duet.h): interleaved, which caught more than duet both
 * on a quiet machine and beside a busy neighbour in the side-by-side
 * benchmark (docs/noise.md, "Duet"; measured:
 * docs/measurements.md#interleaved-against-duet). */
enum policy_ab_sampling { POLICY_AB_INTERLEAVED, POLICY_AB_DUET };
#define POLICY_AB_SAMPLING_DEFAULT POLICY_AB_INTERLEAVED

/* `gate ab`'s measured rounds when --rounds is not given: 61 at the
 * default tier; 19 (twice the tier's 9 plus one) with --quick, the smoke
 * run, and with --full, whose samples at the seeds' own sizes are long
 * enough that 61 rounds of both sides would pass its time budget.
 * Pairing leaves per-process noise, which only more rounds see through:
 * 61 rounds catch smaller changes than 31 with no more false alarms, at
 * about 1.6 times the time of a whole-suite run (docs/noise.md, "Rounds";
 * measured: docs/measurements.md#61-rounds-against-31). */
#define POLICY_AB_ROUNDS 61
#define POLICY_AB_ROUNDS_OTHER_TIERS 19

/* The tiers as the policy knows them (the command line maps its
 * --quick and --full onto these). */
enum policy_tier { POLICY_TIER_QUICK, POLICY_TIER_DEFAULT, POLICY_TIER_FULL };

/* `gate ab`'s measured rounds at TIER when --rounds is not given:
 * POLICY_AB_ROUNDS at the default tier, POLICY_AB_ROUNDS_OTHER_TIERS at
 * the others. */
int policy_ab_rounds(enum policy_tier tier);

struct run_policy {
	bool recorded;              /* false: loaded from a file that did not record it */
	double alpha;               /* family-wise error rate of the timing tests */
	bool fdr;                   /* correction: Benjamini-Hochberg, else Holm */
	double min_effect;          /* smallest relative timing change that fails */
	double min_effect_whole;    /* ... when the code slowed as a whole (the smaller applies) */
	double drift_factor;        /* timing tolerance >= this x the baseline's drift */
	double advisory_tolerance;  /* timing tolerance above which a series is advisory */
	double exact_tolerance;     /* exact counts, relative */
	double near_tolerance;      /* near-exact counts, relative, plus spread and: */
	double near_floor;          /* ... this many events */
	double near_floor_bytes;    /* ... or bytes */
	double min_events;          /* "count" timing series below this are not compared */
	double cost_tolerance;      /* cost counts, relative */
	double cost_miss_tolerance; /* simulated misses, relative ... */
	double cost_miss_floor;     /* ... plus this per thread */
	double cost_thread_slack;   /* threaded cost instructions, per thread */
	double cost_advisory;       /* cost spread x drift factor above which advisory */
	int rounds;                 /* measured rounds per group and batch */
	int runs;                   /* batches */
	int warmup;                 /* warm-up rounds, -1: until two agree */
	int best_of;                /* each timed sample the fastest of K; 0: per parameter set */
	bool cost;                  /* the cost pass was on */
	int cost_runs;              /* cost samples per variant and batch */
	unsigned gates;             /* POLICY_GATE_* bits: what may fail the run */
};

/* Fills P with the defaults above (RECORDED false; GATES all: what a
 * result file that did not record its gates was decided by). */
void policy_defaults(struct run_policy *p);

/* The name of P's correction: "holm" or "bh". */
const char *policy_correction_name(const struct run_policy *p);

/* Parses a correction name; 0 and *FDR, or -1 when unknown. */
int policy_correction_parse(const char *name, bool *fdr);

/* Parses a --gate value: a comma-separated list of counts, cost, timing,
 * deterministic (counts and cost) and all; 0 and *GATES, or -1 when a
 * word is unknown or the list is empty. */
int policy_gates_parse(const char *text, unsigned *gates);

/* GATES as the words policy_gates_parse reads ("counts,cost"; "none"
 * when empty), into BUF of SIZE. */
const char *policy_gates_name(unsigned gates, char *buf, size_t size);

/* Whether A and B decide alike: every field but RECORDED and the sampling
 * counts (rounds, runs, warm-up, best-of, cost samples), which shards may
 * differ in without changing what a verdict means. When they differ and
 * WHAT is not NULL, the first differing field is named in WHAT
 * ("alpha 0.05 vs 0.01"). */
bool policy_same_decisions(const struct run_policy *a, const struct run_policy *b, char *what,
			   size_t size);

/* Folds NEXT, the policy of one more result of a merge, into MERGED (which
 * starts as the first result's, FIRST): MERGED stays recorded while every
 * result recorded one. Returns false when both recorded one and NEXT
 * decides otherwise than FIRST (WHAT, when not NULL, names the field):
 * results of different policies are not merged, since one verdict needs
 * one set of rules. */
bool policy_merge_next(struct run_policy *merged, const struct run_policy *first,
		       const struct run_policy *next, char *what, size_t size);

/* --update-baseline's batches and cost samples: a baseline records
 * POLICY_BASELINE_RUNS batches, so that their spread shows the machine's
 * drift (decide/compare.h's tolerance), and at least
 * POLICY_BASELINE_COST_SAMPLES cost samples, so that their spread says
 * whether the cost series are exact (decide/metric_class.h). */
#define POLICY_BASELINE_RUNS 3
#define POLICY_BASELINE_COST_SAMPLES 3

/* The batches a run takes: RUNS (--runs) when given (> 0), else
 * POLICY_BASELINE_RUNS when UPDATE_BASELINE, else 1. */
int policy_runs(int runs, bool update_baseline);

/* The cost samples per variant and batch a run of RUNS batches takes:
 * COST_RUNS when given (> 0) or when not UPDATE_BASELINE (0: the sampler's
 * one), else enough for POLICY_BASELINE_COST_SAMPLES in all. */
int policy_cost_runs(int cost_runs, int runs, bool update_baseline);

#endif
