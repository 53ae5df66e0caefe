/* commands.h: the subcommands; each returns the process exit status. */
#ifndef GATE_COMMANDS_H
#define GATE_COMMANDS_H

/* `gate run [options]`; SELF_DIR is the directory of the gate binary. */
int run_main(int argc, char **argv, const char *self_dir);

/* `gate list [--kernel-dir DIR]`: kernels, variants, parameter sets, expectations. */
int list_main(int argc, char **argv, const char *self_dir);

#endif
