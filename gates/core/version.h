/* version.h: which allocgate this is (`git describe --always --dirty
 * --tags` of its checkout when it was built, "unknown" outside git): shown
 * by `gate --version` and the report's header, recorded in every result. */
#ifndef GATE_CORE_VERSION_H
#define GATE_CORE_VERSION_H

const char *gate_version(void);

#endif
