/*
 * An example strategy plugin written in C against beacond_plugin.h alone.
 *
 * Strategy "c-streak": alert once a beacon has been seen in `cycles` ranging cycles in a row
 * (a cycle in which it is tracked but not seen, or not tracked at all, starts the count
 * again); after the alert the beacon's action is done until it has been unseen for
 * `reset_seconds`, when it is forgotten and may alert again. Its per-beacon state is saved and
 * restored, so a restart of beacond neither repeats nor loses an alert.
 *
 * Build it alone with: cc -shared -fPIC -I Sources/CBeacondPlugin/include streak_plugin.c
 */
#include "beacond_plugin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One beacon's state. */
typedef struct streak_beacon {
    uint64_t identity[BEACOND_IDENTITY_WORDS];
    uint32_t streak;     /* cycles seen in a row */
    int64_t last_seen;   /* ns since the epoch */
    int64_t last_cycle;  /* the cycle of the latest step, to tell a gap */
    bool done;           /* action done */
    bool changed;        /* not saved since it changed */
} streak_beacon;

typedef struct streak_instance {
    uint32_t cycles;
    int64_t reset_ns;
    streak_beacon *beacons;
    size_t count, capacity;
    /* Beacons forgotten since the last save_state. */
    uint64_t (*forgotten)[BEACOND_IDENTITY_WORDS];
    size_t forgotten_count, forgotten_capacity;
} streak_instance;

/* The saved form: version (1), done (1), streak (4, LE), last_seen (8, LE). */
enum { STATE_VERSION = 1, STATE_LENGTH = 14 };

static streak_beacon *find(streak_instance *s, const uint64_t *identity) {
    for (size_t i = 0; i < s->count; i++)
        if (memcmp(s->beacons[i].identity, identity, sizeof s->beacons[i].identity) == 0) return &s->beacons[i];
    return NULL;
}

static streak_beacon *find_or_add(streak_instance *s, const uint64_t *identity) {
    streak_beacon *b = find(s, identity);
    if (b) return b;
    if (s->count == s->capacity) {
        size_t capacity = s->capacity ? s->capacity * 2 : 16;
        streak_beacon *grown = realloc(s->beacons, capacity * sizeof *grown);
        if (!grown) return NULL;
        s->beacons = grown;
        s->capacity = capacity;
    }
    b = &s->beacons[s->count++];
    memset(b, 0, sizeof *b);
    memcpy(b->identity, identity, sizeof b->identity);
    b->last_cycle = INT64_MIN;
    return b;
}

/* Reads an integer member of a flat JSON object ("name": 12); `fallback` when absent. */
static long long json_integer(const char *json, const char *name, long long fallback) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":", name);
    const char *at = strstr(json, pattern);
    if (!at) return fallback;
    return strtoll(at + strlen(pattern), NULL, 10);
}

static char *message(const char *text) {
    char *copy = malloc(strlen(text) + 1);
    if (copy) strcpy(copy, text);
    return copy;
}

static void *streak_create(void *plugin, const char *key, const char *parameters_json, char **error) {
    (void)plugin;
    (void)key;
    long long cycles = json_integer(parameters_json, "cycles", 3);
    long long reset = json_integer(parameters_json, "reset_seconds", 10);
    if (cycles < 1 || cycles > 100000) {
        *error = message("c-streak: cycles must be between 1 and 100000");
        return NULL;
    }
    if (reset < 1) {
        *error = message("c-streak: reset_seconds must be at least 1");
        return NULL;
    }
    streak_instance *s = calloc(1, sizeof *s);
    if (!s) {
        *error = message("c-streak: out of memory");
        return NULL;
    }
    s->cycles = (uint32_t)cycles;
    s->reset_ns = (int64_t)reset * 1000000000LL;
    return s;
}

static void streak_destroy(void *instance) {
    streak_instance *s = instance;
    free(s->beacons);
    free(s->forgotten);
    free(s);
}

static bool streak_step(void *instance, const uint64_t *beacon, int64_t now, bool evaluate) {
    streak_instance *s = instance;
    streak_beacon *b = find_or_add(s, beacon + BEACOND_WORD_IDENTITY);
    if (!b) return false;
    if (beacon[BEACOND_WORD_SEEN]) {
        /* A cycle missed since the latest step breaks the streak (cycles are 1 s apart here;
         * anything longer than 1.5 s counts as a gap). */
        bool continues = b->last_cycle != INT64_MIN && now - b->last_cycle <= 1500000000LL;
        b->streak = continues ? b->streak + 1 : 1;
        b->last_seen = now;
    } else {
        b->streak = 0;
    }
    b->last_cycle = now;
    b->changed = true;
    if (evaluate && !b->done && b->streak >= s->cycles) {
        b->done = true;
        return true;
    }
    return false;
}

static void streak_finish_cycle(void *instance, int64_t now, beacond_fired_fn fired, void *context) {
    (void)fired;
    (void)context;
    streak_instance *s = instance;
    for (size_t i = 0; i < s->count;) {
        streak_beacon *b = &s->beacons[i];
        if (now - b->last_seen > s->reset_ns) {
            /* Unseen for reset_seconds: forget it (and its saved state). */
            if (s->forgotten_count == s->forgotten_capacity) {
                size_t capacity = s->forgotten_capacity ? s->forgotten_capacity * 2 : 16;
                void *grown = realloc(s->forgotten, capacity * sizeof *s->forgotten);
                if (!grown) return;
                s->forgotten = grown;
                s->forgotten_capacity = capacity;
            }
            memcpy(s->forgotten[s->forgotten_count++], b->identity, sizeof b->identity);
            s->beacons[i] = s->beacons[--s->count];
        } else {
            i++;
        }
    }
}

static bool streak_condition_valid(void *instance, const uint64_t *identity, int64_t now) {
    (void)now;
    streak_instance *s = instance;
    streak_beacon *b = find(s, identity);
    return b && b->streak >= s->cycles;
}

static void streak_mark_done(void *instance, const uint64_t *identity, int64_t now) {
    (void)now;
    streak_beacon *b = find(instance, identity);
    if (b) {
        b->done = true;
        b->changed = true;
    }
}

static bool streak_describe(void *instance, const uint64_t *identity, int64_t now, beacond_beacon_status *status,
                            char **explanation) {
    streak_instance *s = instance;
    streak_beacon *b = find(s, identity);
    if (!b) return false;
    status->action_done = b->done;
    status->condition_valid = b->streak >= s->cycles;
    status->last_seen = b->last_seen;
    status->resets_at = b->done ? b->last_seen + s->reset_ns : INT64_MIN;
    status->progress = (double)b->streak;
    status->progress_threshold = (double)s->cycles;
    status->progress_unit = "cycles";
    /* A sentence that changes with the beacon's situation, not every cycle: the progress counts. */
    char text[96];
    if (b->done)
        snprintf(text, sizeof text, "alerted; resets after %lld s unseen", (long long)(s->reset_ns / 1000000000LL));
    else if (now - b->last_seen > 1500000000LL)
        snprintf(text, sizeof text, "streak broken: unseen in the latest cycle");
    else
        snprintf(text, sizeof text, "in a streak of sightings, %u cycles wanted", (unsigned)s->cycles);
    *explanation = strdup(text);
    return true;
}

static int32_t streak_state_durability(void *instance, char **message_out) {
    (void)instance;
    (void)message_out;
    return BEACOND_STATE_SAVED;
}

static void streak_save_state(void *instance, beacond_state_fn report, void *context) {
    streak_instance *s = instance;
    for (size_t i = 0; i < s->forgotten_count; i++) {
        beacond_state_entry entry = {.part = "", .identity = s->forgotten[i], .bytes = NULL, .length = 0};
        report(context, &entry);
    }
    s->forgotten_count = 0;
    for (size_t i = 0; i < s->count; i++) {
        streak_beacon *b = &s->beacons[i];
        if (!b->changed) continue;
        b->changed = false;
        uint8_t bytes[STATE_LENGTH] = {STATE_VERSION, b->done ? 1 : 0};
        for (int k = 0; k < 4; k++) bytes[2 + k] = (uint8_t)(b->streak >> (8 * k));
        for (int k = 0; k < 8; k++) bytes[6 + k] = (uint8_t)((uint64_t)b->last_seen >> (8 * k));
        beacond_state_entry entry = {.part = "", .identity = b->identity, .bytes = bytes, .length = sizeof bytes};
        report(context, &entry);
    }
}

static int32_t streak_restore_state(void *instance, const beacond_state_entry *entries, size_t count, char **error) {
    streak_instance *s = instance;
    for (size_t i = 0; i < count; i++) {
        const beacond_state_entry *e = &entries[i];
        if (e->part[0] != '\0') continue;
        if (e->length != STATE_LENGTH || !e->bytes || e->bytes[0] != STATE_VERSION) {
            *error = message("c-streak: saved state is not 14 bytes of version 1");
            return 1;
        }
        streak_beacon *b = find_or_add(s, e->identity);
        if (!b) {
            *error = message("c-streak: out of memory");
            return 1;
        }
        b->done = e->bytes[1] != 0;
        b->streak = 0;
        for (int k = 0; k < 4; k++) b->streak |= (uint32_t)e->bytes[2 + k] << (8 * k);
        uint64_t seen = 0;
        for (int k = 0; k < 8; k++) seen |= (uint64_t)e->bytes[6 + k] << (8 * k);
        b->last_seen = (int64_t)seen;
        b->last_cycle = b->last_seen;
        b->changed = false;
    }
    return 0;
}

static const beacond_strategy_functions streak_functions = {
    .size = sizeof(beacond_strategy_functions),
    .create = streak_create,
    .destroy = streak_destroy,
    .step = streak_step,
    .finish_cycle = streak_finish_cycle,
    .condition_valid = streak_condition_valid,
    .mark_done = streak_mark_done,
    .state_durability = streak_state_durability,
    .save_state = streak_save_state,
    .restore_state = streak_restore_state,
    .describe = streak_describe,
};

static const char streak_registration[] =
    "{\"key\":\"c-streak\","
    "\"summary\":\"Example C plugin: alert once a beacon is seen in `cycles` cycles in a row.\","
    "\"parameters\":["
    "{\"name\":\"cycles\",\"kind\":\"integer\",\"required\":false,\"default\":3,"
    "\"doc\":\"Cycles in a row with a sighting before the alert.\",\"tuning\":[1,2,3,5,8]},"
    "{\"name\":\"reset_seconds\",\"kind\":\"integer\",\"required\":false,\"default\":10,"
    "\"doc\":\"Seconds unseen before the beacon may alert again.\"}]}";

int32_t beacond_register_strategies(
    uint32_t host_abi_version, uint32_t *plugin_abi_version, void *registrar, beacond_register_fn register_fn) {
    *plugin_abi_version = BEACOND_PLUGIN_ABI_VERSION;
    if (host_abi_version != BEACOND_PLUGIN_ABI_VERSION) return BEACOND_PLUGIN_ABI_MISMATCH;
    if (register_fn(registrar, streak_registration, NULL, &streak_functions) != 0)
        return BEACOND_PLUGIN_REGISTRATION_FAILED;
    return BEACOND_PLUGIN_OK;
}
