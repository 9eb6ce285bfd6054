// Header-only module (see include/CBeaconHeap.h); SwiftPM needs one source file per C target.
#include "CBeaconHeap.h"
