#ifndef BEACOND_CBLUETOOTH_H
#define BEACOND_CBLUETOOTH_H
/* libbluetooth (BlueZ, GPL-2.0-or-later) as seen by BeaconBlueZ only. */
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/hci_lib.h>
#endif
