/*
 * beacond_plugin.h: the C interface between beacond and a strategy plugin.
 *
 * A strategy plugin is a shared library that adds alert strategies to beacond
 * (`beacond run --plugin libmy_strategies.so`). It exports one function,
 * beacond_register_strategies, and hands beacond one registration per strategy key: a JSON
 * document (key, summary, parameters) and a table of functions that create, drive, save,
 * restore and destroy instances of that strategy.
 *
 * Nothing language-specific crosses this boundary: only C scalars, UTF-8 C strings (JSON) and
 * opaque pointers. A plugin may be written in C, C++, Rust or Swift. A Swift plugin does not
 * use this header directly: BeaconStrategyPlugins' StrategyPluginExport turns a
 * StrategyRegistry into these calls.
 *
 * Threads: beacond calls an instance from one thread at a time (the task that owns the
 * pipeline), never concurrently; different instances may be called from different threads,
 * but not at the same time unless the user asks for it (`beacond tune --plugin … --threads N`
 * runs several instances at once: state shared between instances must then be guarded).
 *
 * Memory: strings the plugin returns through a `char **error` or `char **message` are
 * allocated with malloc and freed by beacond. Pointers beacond passes in are valid for the
 * duration of the call only. A plugin is never unloaded.
 *
 * Versioning: BEACOND_PLUGIN_ABI_VERSION changes whenever a type or a function here changes
 * incompatibly; the host and the plugin must agree on it exactly (see
 * beacond_register_strategies). beacond_strategy_functions starts with its own size so that
 * functions can be appended in a later version without breaking older plugins.
 */
#ifndef BEACOND_PLUGIN_H
#define BEACOND_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this interface. 2 added state saving (state_durability, save_state,
 * restore_state) and the function table; 1 passed seven function pointers one by one. */
#define BEACOND_PLUGIN_ABI_VERSION 2u

/* The symbol every plugin exports. */
#define BEACOND_PLUGIN_ENTRY_POINT "beacond_register_strategies"

/* ---- Beacons and identities ------------------------------------------------------------- */

/* A beacon identity crosses as 4 words:
 *   [0] kind (BEACOND_KIND_*)
 *   [1] high 64 bits: iBeacon UUID or AltBeacon id1, most significant half; Eddystone-UID:
 *       the namespace's top 64 bits
 *   [2] low 64 bits: the other half; Eddystone-UID: the namespace's low 16 bits in the top
 *       16 bits, then the 48-bit instance
 *   [3] tail: iBeacon major << 16 | minor, AltBeacon id2 << 16 | id3; 0 for Eddystone-UID
 * An enrolled device (BEACOND_KIND_DEVICE, a phone or watch resolved by its key) holds the
 * ASCII name it is enrolled under in the 20 bytes of [1], [2] and [3]'s low 32 bits, most
 * significant first, padded with zero bytes.
 * Two identities are the same beacon exactly when their 4 words are equal. */
#define BEACOND_IDENTITY_WORDS 4
#define BEACOND_KIND_IBEACON 0u
#define BEACOND_KIND_ALTBEACON 1u
#define BEACOND_KIND_EDDYSTONE_UID 2u
#define BEACOND_KIND_DEVICE 3u

/* A ranged beacon (one beacon in one ranging cycle) crosses as 17 words. Integers are two's
 * complement in a uint64_t, with BEACOND_NONE for "none"; reals are IEEE 754 double bit
 * patterns, with NaN for "none"; times are nanoseconds since the Unix epoch. */
#define BEACOND_BEACON_WORDS 17
#define BEACOND_NONE ((uint64_t)INT64_MIN)

enum beacond_beacon_word {
    BEACOND_WORD_IDENTITY = 0,        /* 4 words, as above */
    BEACOND_WORD_ADDRESS = 4,         /* last Bluetooth address, 48 bits, most significant byte first */
    BEACOND_WORD_ADDRESS_COUNT = 5,   /* distinct addresses seen (rotating private addresses) */
    BEACOND_WORD_SEEN = 6,            /* 1 when seen in this cycle, 0 when within its grace */
    BEACOND_WORD_SAMPLE_COUNT = 7,    /* advertisements in this cycle */
    BEACOND_WORD_LAST_RSSI = 8,       /* integer dBm, or BEACOND_NONE */
    BEACOND_WORD_MEAN_RSSI = 9,       /* double dBm, or NaN */
    BEACOND_WORD_FILTERED_RSSI = 10,  /* double dBm, or NaN */
    BEACOND_WORD_MEASURED_POWER = 11, /* integer dBm at 1 m, or BEACOND_NONE */
    BEACOND_WORD_DISTANCE = 12,       /* double metres, or NaN */
    BEACOND_WORD_ACCURACY = 13,       /* double metres, or NaN */
    BEACOND_WORD_PROXIMITY = 14,      /* BEACOND_PROXIMITY_* */
    BEACOND_WORD_FIRST_SEEN = 15,     /* time */
    BEACOND_WORD_LAST_SEEN = 16       /* time */
};

#define BEACOND_PROXIMITY_IMMEDIATE 0u
#define BEACOND_PROXIMITY_NEAR 1u
#define BEACOND_PROXIMITY_FAR 2u
#define BEACOND_PROXIMITY_UNKNOWN 3u

/* ---- Saved state ------------------------------------------------------------------------ */

/* How much of an instance's per-beacon state survives a restart (state_durability). */
enum beacond_state_durability {
    BEACOND_STATE_SAVED = 0,      /* save_state and restore_state keep all of it */
    BEACOND_STATE_NOT_NEEDED = 1, /* the instance keeps nothing a restart could lose */
    BEACOND_STATE_INCOMPLETE = 2  /* some is lost; *message says what (beacond warns at start) */
};

/* One beacon's saved state, as save_state reports it and restore_state receives it. */
typedef struct beacond_state_entry {
    /* Which part of the instance the state belongs to: "" for the instance itself (a
     * composite strategy names its members' parts). UTF-8, NUL-terminated. */
    const char *part;
    /* The beacon, BEACOND_IDENTITY_WORDS words. */
    const uint64_t *identity;
    /* The state bytes (opaque to beacond). In save_state, NULL means the instance forgot the
     * beacon and its saved state is to be removed; in restore_state, NULL only when length is 0. */
    const uint8_t *bytes;
    size_t length;
} beacond_state_entry;

/* ---- Callbacks beacond passes to the plugin --------------------------------------------- */

/* finish_cycle reports each beacon whose alert fires at the end of the cycle. */
typedef void (*beacond_fired_fn)(void *context, const uint64_t *identity);

/* save_state reports each changed beacon. The entry and what it points to are read during the
 * call only. */
typedef void (*beacond_state_fn)(void *context, const beacond_state_entry *entry);

/* Where one beacon stands with a strategy (describe). */
typedef struct beacond_beacon_status {
    bool action_done;          /* its action is done since the last reset */
    bool condition_valid;      /* its condition holds at `now` */
    int64_t last_seen;         /* the latest cycle it counted as present, ns since the epoch */
    int64_t resets_at;         /* when its action resets if it stays unseen; INT64_MIN: not set */
    double progress;           /* how far towards the condition, in `progress_unit`s */
    double progress_threshold; /* where the condition holds, in the same unit */
    const char *progress_unit; /* a static string ("cycles", "s"); NULL: no progress measured */
} beacond_beacon_status;

/* ---- The functions of one strategy ------------------------------------------------------ */

typedef struct beacond_strategy_functions {
    /* sizeof(beacond_strategy_functions) as the plugin was compiled. */
    uint32_t size;

    /* A new instance for `parameters_json` (a JSON object of the resolved parameters, every
     * declared parameter present), or NULL with a malloc'ed message in *error. The message may
     * be a JSON-coded configuration error (as StrategyPluginExport writes) or plain text. */
    void *(*create)(void *plugin, const char *key, const char *parameters_json, char **error);

    /* Frees an instance. */
    void (*destroy)(void *instance);

    /* Updates one beacon (BEACOND_BEACON_WORDS words) at `now`. When `evaluate` is true, also
     * fires if the beacon is ready for action: marks its action done and returns true. */
    bool (*step)(void *instance, const uint64_t *beacon, int64_t now, bool evaluate);

    /* The cycle ending at `now` is over: age beacons not updated in it (reset after
     * max_time_before_reset unseen) and report through `fired` any that fire now. */
    void (*finish_cycle)(void *instance, int64_t now, beacond_fired_fn fired, void *context);

    /* Whether the beacon's condition holds at `now` (false for an unknown beacon). */
    bool (*condition_valid)(void *instance, const uint64_t *identity, int64_t now);

    /* Marks the beacon's action done at `now` (beacond delivered its alert by other means). */
    void (*mark_done)(void *instance, const uint64_t *identity, int64_t now);

    /* Whether save_state and restore_state keep the instance's state; with
     * BEACOND_STATE_INCOMPLETE, a malloc'ed explanation in *message. */
    int32_t (*state_durability)(void *instance, char **message);

    /* Reports every beacon whose state changed since the last call (and every beacon forgotten,
     * with bytes NULL). beacond stores them in the same transaction as the alerts they led to. */
    void (*save_state)(void *instance, beacond_state_fn state, void *context);

    /* Restores saved state into a new instance, before its first step. Returns 0, or non-zero
     * with a malloc'ed message in *error (beacond then starts that strategy without its state
     * and says so). */
    int32_t (*restore_state)(void *instance, const beacond_state_entry *entries, size_t count, char **error);

    /* ---- Appended to version 2 (a table whose `size` ends before here has none of these). */

    /* Optional (NULL: none; beacond then explains the strategy by its firings alone). Where one
     * beacon stands at `now`, for `beacond explain`, /api/explain and the status page: called on
     * demand only, never per cycle. Returns false for a beacon the instance does not remember;
     * otherwise fills *status and may set *explanation to a malloc'ed sentence in the strategy's
     * own words ("a streak of 4 cycles since 09:00:12"): one that changes when the beacon's
     * situation does, not every cycle (the progress says how far it has come). */
    bool (*describe)(void *instance, const uint64_t *identity, int64_t now, beacond_beacon_status *status,
                     char **explanation);
} beacond_strategy_functions;

/* ---- Registration ----------------------------------------------------------------------- */

/* beacond's registrar: call it once per strategy key with the registration JSON
 *   {"key": "dwell", "summary": "one line",
 *    "parameters": [{"name": "seconds", "kind": "integer", "required": false,
 *                    "default": 30, "doc": "one line", "tuning": [10, 20, 30, 60]}]}
 * (kind: "duration", "proximity", "integer", "number", "boolean", "string" or "strategies";
 * "default" is optional and written as a configuration file would: "3s", "near", 30, true;
 * "tuning", optional, lists the values `beacond tune` tries, written the same way),
 * the plugin's context (passed back to create) and the strategy's functions (copied by
 * beacond). Returns 0, or non-zero when beacond refuses the registration. */
typedef int32_t (*beacond_register_fn)(
    void *registrar, const char *registration_json, void *plugin, const beacond_strategy_functions *functions);

/* The return codes of beacond_register_strategies. */
enum beacond_plugin_status {
    BEACOND_PLUGIN_OK = 0,
    BEACOND_PLUGIN_ABI_MISMATCH = 1,
    BEACOND_PLUGIN_REGISTRATION_FAILED = 2
};

/* The entry point. Sets *plugin_abi_version to BEACOND_PLUGIN_ABI_VERSION; returns
 * BEACOND_PLUGIN_ABI_MISMATCH when host_abi_version differs; otherwise calls register_fn once per
 * strategy and returns BEACOND_PLUGIN_OK, or BEACOND_PLUGIN_REGISTRATION_FAILED when a call
 * failed. */
int32_t beacond_register_strategies(
    uint32_t host_abi_version, uint32_t *plugin_abi_version, void *registrar, beacond_register_fn register_fn);

#ifdef __cplusplus
}
#endif

#endif /* BEACOND_PLUGIN_H */
