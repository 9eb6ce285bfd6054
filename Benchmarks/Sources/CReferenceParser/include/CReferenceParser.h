// A minimal C parser doing the work of the Swift `parse` benchmark, as a speed reference:
// H4 framing, LE (Extended) Advertising Report walking, iBeacon lookup in the AD data,
// extraction of UUID / major / minor / RSSI / address.
#ifndef BEACOND_C_REFERENCE_PARSER_H
#define BEACOND_C_REFERENCE_PARSER_H

#include <stddef.h>
#include <stdint.h>

/// Totals over every report, so that the work cannot be optimised away and can be checked.
typedef struct {
    uint64_t reports;
    uint64_t ibeacons;
    uint64_t sum_major;
    uint64_t sum_minor;
    int64_t sum_rssi;
    int64_t sum_power;
    uint64_t sum_uuid_hi32;
    uint64_t address_xor;
} beacond_c_totals;

/// Frames `length` bytes of H4 stream and accumulates every iBeacon report into `totals`.
void beacond_c_parse(const uint8_t *bytes, size_t length, beacond_c_totals *totals);

#endif
