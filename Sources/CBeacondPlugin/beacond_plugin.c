// The interface is all in include/beacond_plugin.h; SwiftPM needs one source file per C target.
#include "beacond_plugin.h"
