#include "CReferenceParser.h"
#include <string.h>

typedef struct {
    uint8_t uuid[16];
    uint16_t major;
    uint16_t minor;
    int8_t power;
    int8_t rssi;
    uint64_t address;
} sighting;

static void accumulate(const sighting *s, beacond_c_totals *t) {
    t->ibeacons += 1;
    t->sum_major += s->major;
    t->sum_minor += s->minor;
    t->sum_rssi += s->rssi == 127 ? 0 : s->rssi;
    t->sum_power += s->power;
    t->sum_uuid_hi32 += ((uint64_t)s->uuid[0] << 24) | ((uint64_t)s->uuid[1] << 16) | ((uint64_t)s->uuid[2] << 8) | s->uuid[3];
    t->address_xor ^= s->address;
}

static uint64_t address_at(const uint8_t *p) {
    uint64_t a = 0;
    for (int i = 5; i >= 0; i--) a = a << 8 | p[i];
    return a;
}

/// Looks for an iBeacon in AD data; fills `s` and returns 1 when found.
static int find_ibeacon(const uint8_t *d, size_t n, sighting *s) {
    size_t j = 0;
    while (j < n) {
        size_t l = d[j];
        if (l == 0 || j + 1 + l > n) return 0;
        if (l >= 26 && d[j + 1] == 0xFF && d[j + 2] == 0x4C && d[j + 3] == 0x00 && d[j + 4] == 0x02 && d[j + 5] == 0x15) {
            memcpy(s->uuid, d + j + 6, 16);
            s->major = (uint16_t)(d[j + 22] << 8 | d[j + 23]);
            s->minor = (uint16_t)(d[j + 24] << 8 | d[j + 25]);
            s->power = (int8_t)d[j + 26];
            return 1;
        }
        j += 1 + l;
    }
    return 0;
}

static void parse_event(const uint8_t *e, size_t len, beacond_c_totals *t) {
    if (len < 5 || e[1] != 0x3E) return;
    uint8_t sub = e[3];
    unsigned count = e[4];
    size_t pos = 5;
    sighting s;
    for (unsigned r = 0; r < count; r++) {
        if (sub == 0x02) {
            if (pos + 10 > len) return;
            size_t dl = e[pos + 8];
            if (dl > 31 || pos + 10 + dl > len) return;
            t->reports++;
            if (find_ibeacon(e + pos + 9, dl, &s)) {
                s.rssi = (int8_t)e[pos + 9 + dl];
                s.address = address_at(e + pos + 2);
                accumulate(&s, t);
            }
            pos += 10 + dl;
        } else if (sub == 0x0D) {
            if (pos + 24 > len) return;
            size_t dl = e[pos + 23];
            if (pos + 24 + dl > len) return;
            t->reports++;
            if (find_ibeacon(e + pos + 24, dl, &s)) {
                s.rssi = (int8_t)e[pos + 13];
                s.address = address_at(e + pos + 3);
                accumulate(&s, t);
            }
            pos += 24 + dl;
        } else {
            return;
        }
    }
}

void beacond_c_parse(const uint8_t *p, size_t n, beacond_c_totals *t) {
    size_t i = 0;
    while (i < n) {
        size_t header, payload;
        switch (p[i]) {
        case 0x01: case 0x03:
            if (i + 4 > n) return;
            header = 4; payload = p[i + 3];
            break;
        case 0x02: case 0x05:
            if (i + 5 > n) return;
            header = 5; payload = (size_t)(p[i + 3] | p[i + 4] << 8) & (p[i] == 0x05 ? 0x3FFF : 0xFFFF);
            break;
        case 0x04:
            if (i + 3 > n) return;
            header = 3; payload = p[i + 2];
            break;
        default:
            i++;
            continue;
        }
        if (i + header + payload > n) return;
        if (p[i] == 0x04) parse_event(p + i, header + payload, t);
        i += header + payload;
    }
}
