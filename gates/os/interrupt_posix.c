/* interrupt_posix.c: interrupt.h on POSIX: SIGINT, SIGTERM and SIGHUP are
 * blocked in the calling thread, hence in every thread it starts later, and
 * one thread takes them with sigwait(3); the children unblock them before
 * they exec (spawn_posix.c). */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>

#include "core/interrupt.h"

static const int ending_signals[] = { SIGINT, SIGTERM, SIGHUP };
static sigset_t waited;
static void (*callback)(int);

static void *interrupt_thread(void *arg)
{
	int sig;
	(void)arg;
	for (;;)
		if (sigwait(&waited, &sig) == 0)
			callback(sig);
	return NULL;
}

int interrupt_install(void (*on_signal)(int signal_number))
{
	pthread_t thread;
	pthread_attr_t attr;
	struct sigaction old;
	sigemptyset(&waited);
	for (size_t i = 0; i < sizeof ending_signals / sizeof *ending_signals; i++)
		if (sigaction(ending_signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaddset(&waited, ending_signals[i]);
	callback = on_signal;
	int ret = pthread_sigmask(SIG_BLOCK, &waited, NULL);
	if (ret)
		return -ret;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	ret = pthread_create(&thread, &attr, interrupt_thread, NULL);
	pthread_attr_destroy(&attr);
	if (ret) {
		pthread_sigmask(SIG_UNBLOCK, &waited, NULL);
		return -ret;
	}
	return 0;
}

const char *interrupt_name(int signal_number)
{
	switch (signal_number) {
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGHUP: return "SIGHUP";
	default: return "a signal";
	}
}
