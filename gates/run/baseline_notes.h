/* baseline_notes.h: what the report says about the baseline file itself,
 * beside the verdicts it decided: what of an older file's was accepted
 * without being there, and what the change under test did to the file
 * (docs/options.md, "Baselines"). Each is information,
 * never a failure: lines for the result's baseline note. */
#ifndef GATE_BASELINE_NOTES_H
#define GATE_BASELINE_NOTES_H

#include "core/result.h"

/* One line naming what BASE, a loaded baseline, lacks and was accepted
 * without (no policy, no context), or NULL when it lacks nothing. The
 * allocation sites of an older file are said by decide/comparable.h. */
char *baseline_notes_leniency(const struct run_result *base);

/* When the baseline file PATH differs from its version at the revision
 * the change is measured against (core/commit.h's commit_base_revision):
 * one line naming how many series' medians moved (the largest), how many
 * were added or removed, and that `gate ab` is the gate for a change,
 * then up to BASELINE_NOTES_DETAILS lines of the largest moves. NULL when
 * it does not differ, or cannot be told (no git, not a checkout, no such
 * revision or file there). */
#define BASELINE_NOTES_DETAILS 5
char *baseline_notes_change(const char *path);

#endif
