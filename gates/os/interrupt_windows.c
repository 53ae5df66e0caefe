/* interrupt_windows.c: interrupt.h on Windows: a console control handler
 * (SetConsoleCtrlHandler), which Windows runs on a thread of its own. */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <errno.h>

#include "core/interrupt.h"

static void (*callback)(int);

static BOOL WINAPI on_control(DWORD event)
{
	switch (event) {
	case CTRL_C_EVENT:
		callback(2);    /* SIGINT */
		return TRUE;
	case CTRL_BREAK_EVENT:
		callback(21);   /* SIGBREAK */
		return TRUE;
	case CTRL_CLOSE_EVENT:
	case CTRL_LOGOFF_EVENT:
	case CTRL_SHUTDOWN_EVENT:
		callback(1);    /* as SIGHUP */
		return TRUE;
	default:
		return FALSE;
	}
}

int interrupt_install(void (*on_signal)(int signal_number))
{
	callback = on_signal;
	return SetConsoleCtrlHandler(on_control, TRUE) ? 0 : -EPERM;
}

const char *interrupt_name(int signal_number)
{
	switch (signal_number) {
	case 2: return "Ctrl+C";
	case 21: return "Ctrl+Break";
	case 1: return "the console's close";
	default: return "a console event";
	}
}
