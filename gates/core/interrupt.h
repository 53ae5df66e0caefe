/* interrupt.h: the signals that end a run (SIGINT, SIGTERM, SIGHUP; on
 * Windows the console's Ctrl+C, Ctrl+Break and close events) turned into
 * one call of the gate's own, on a thread of its own, where it may take
 * locks and free memory as any code (not in a signal handler). One file
 * per OS: interrupt_posix.c (the signals blocked in every thread, one
 * thread in sigwait(3)), interrupt_windows.c (SetConsoleCtrlHandler, whose
 * handler runs on a thread of its own). */
#ifndef GATE_INTERRUPT_H
#define GATE_INTERRUPT_H

/* From now on SIGINT, SIGTERM and SIGHUP call ON_SIGNAL(signal number) on
 * the interrupt thread; ON_SIGNAL is expected to end the process. A signal
 * ignored when the gate started (nohup, a shell's background job) stays
 * ignored. On Windows, Ctrl+C is 2 (SIGINT), Ctrl+Break 21 (SIGBREAK), the
 * console's close, logoff and shutdown events 1 (as SIGHUP). Call it
 * before any thread starts: the threads inherit the blocked signals.
 * Returns 0 or a negative errno. */
int interrupt_install(void (*on_signal)(int signal_number));

/* The name of signal SIGNAL_NUMBER as interrupt_install passes it
 * ("SIGINT"; "signal N" for another). */
const char *interrupt_name(int signal_number);

#endif
