#ifndef BEACOND_CBLUETOOTH_H
#define BEACOND_CBLUETOOTH_H
/* libbluetooth (BlueZ, GPL-2.0-or-later) as seen by BeaconBlueZ only. */
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/hci_lib.h>
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

/*
 * Thin wrappers for what Swift cannot call directly: ioctl() is variadic and the HCIGET*
 * request numbers are _IOR() macros; the socket constants are macros as well. Each returns
 * what the system call returns (-1 with errno set on failure).
 */

/* socket(AF_BLUETOOTH, SOCK_RAW | SOCK_CLOEXEC, BTPROTO_HCI) */
static inline int cbt_open_raw_socket(void) {
    return socket(AF_BLUETOOTH, SOCK_RAW | SOCK_CLOEXEC, BTPROTO_HCI);
}

/* bind() to adapter `index` on the raw channel (what hci_open_dev() does). */
static inline int cbt_bind_raw(int sock, uint16_t index) {
    struct sockaddr_hci addr;
    memset(&addr, 0, sizeof(addr));
    addr.hci_family = AF_BLUETOOTH;
    addr.hci_dev = index;
    addr.hci_channel = HCI_CHANNEL_RAW;
    return bind(sock, (struct sockaddr *)&addr, sizeof(addr));
}

/* ioctl(HCIGETDEVLIST): up to `max` adapter indices and their flags (bit HCI_UP = up).
 * Returns the number of adapters, or -1. */
static inline int cbt_get_device_list(int sock, uint16_t *ids, uint32_t *flags, int max) {
    if (max <= 0 || max > HCI_MAX_DEV) max = HCI_MAX_DEV;
    struct { uint16_t dev_num; struct hci_dev_req dev_req[HCI_MAX_DEV]; } list;
    memset(&list, 0, sizeof(list));
    list.dev_num = (uint16_t)max;
    if (ioctl(sock, HCIGETDEVLIST, (void *)&list) < 0) return -1;
    for (int i = 0; i < list.dev_num && i < max; i++) {
        ids[i] = list.dev_req[i].dev_id;
        flags[i] = list.dev_req[i].dev_opt;
    }
    return list.dev_num;
}

/* ioctl(HCIGETDEVINFO) for adapter `index`. */
static inline int cbt_get_device_info(int sock, uint16_t index, struct hci_dev_info *info) {
    memset(info, 0, sizeof(*info));
    info->dev_id = index;
    return ioctl(sock, HCIGETDEVINFO, (void *)info);
}

/* True when the HCI_UP bit is set in an adapter's flags. */
static inline int cbt_flags_is_up(uint32_t flags) { return (flags & (1u << HCI_UP)) != 0; }

/* getsockopt(SOL_HCI, HCI_FILTER): the socket's 16-byte struct hci_filter. */
static inline int cbt_get_filter(int sock, struct hci_filter *filter) {
    socklen_t length = sizeof(*filter);
    memset(filter, 0, sizeof(*filter));
    return getsockopt(sock, SOL_HCI, HCI_FILTER, filter, &length);
}

/* setsockopt(SOL_HCI, HCI_FILTER). */
static inline int cbt_set_filter(int sock, const struct hci_filter *filter) {
    return setsockopt(sock, SOL_HCI, HCI_FILTER, filter, sizeof(*filter));
}

/* The filter hcitool lescan uses: HCI event packets, LE Meta events only
 * (hci_filter_clear + hci_filter_set_ptype(HCI_EVENT_PKT) + hci_filter_set_event(EVT_LE_META_EVENT)).
 * Lets tests compare the Swift filter with libbluetooth's own helpers. */
static inline struct hci_filter cbt_le_meta_filter(void) {
    struct hci_filter f;
    hci_filter_clear(&f);
    hci_filter_set_ptype(HCI_EVENT_PKT, &f);
    hci_filter_set_event(EVT_LE_META_EVENT, &f);
    return f;
}

/* sizeof(struct hci_filter): 16 with padding. */
static inline int cbt_filter_size(void) { return (int)sizeof(struct hci_filter); }

#endif
