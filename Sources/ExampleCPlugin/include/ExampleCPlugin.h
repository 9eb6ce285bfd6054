// ExampleCPlugin has no API of its own: it exports beacond_register_strategies (beacond_plugin.h).
#include "beacond_plugin.h"
