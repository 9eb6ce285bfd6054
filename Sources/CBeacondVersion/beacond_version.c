/* The version lives in include/beacond_version.h; this file gives the target a translation unit. */
#include "beacond_version.h"
