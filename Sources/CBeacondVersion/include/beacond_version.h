#ifndef BEACOND_VERSION_H
#define BEACOND_VERSION_H
/*
 * The version `beacond --version` prints. A development build says 0.0.0-dev; `make dist`
 * builds with -Xcc -DBEACOND_VERSION='"<version from git tags>"' (scripts/version.sh).
 */
#ifndef BEACOND_VERSION
#define BEACOND_VERSION "0.0.0-dev"
#endif

static inline const char *beacond_version(void) { return BEACOND_VERSION; }
#endif
