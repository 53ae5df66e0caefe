/* test_message.c: gates/core/message.c, the one form of the gate's
 * messages: the text they quote (a file's fields, a kernel's output) is
 * shown escaped, so no message moves the cursor or starts a line. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include "core/message.h"

Test(message, quoted_control_characters_are_shown_escaped, .init = cr_redirect_stderr)
{
	message_set_program("gate");
	message_error("malformed baseline: %s", "b.json: class \"x\r\n::error::forged\x1b[31m\xff\"");
	fflush(stderr);
	cr_expect_stderr_eq_str("gate: malformed baseline: b.json: class "
				"\"x\\r\\n::error::forged\\x1b[31m\\xff\"\n");
}
