// Everything is in include/CBeaconPrefetch.h; SwiftPM needs one source file per C target.
#include "CBeaconPrefetch.h"
