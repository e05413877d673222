// wan-delay: the WAN simulation's delay line (benchmarks/wan-sim.sh). A user-space router
// between TUN devices, one per network namespace, that forwards IPv4 packets after a delay.
//
// Why user space: the kernel this was written on has no sch_netem ("Specified qdisc kind is
// unknown"), and a TUN pair forwarder is the smallest real packet-level delay: every packet
// (DNS over UDP, TCP handshakes, TLS records, retransmissions) really waits, and TCP reacts
// to the delay and the loss as it would on a WAN.
//
//   wan-delay [options] PORT...
//     PORT           NETNS-PATH:TUN-NAME:PREFIX/LEN, e.g. /run/netns/x:wan0:10.200.0.0/16. The
//                    program joins the namespace (setns), attaches to the existing TUN device
//                    there, and sends it the packets whose destination is in PREFIX/LEN.
//     --delay-ms N   one-way delay (default 50)
//     --jitter-ms N  uniform jitter, ± N ms (default 10)
//     --loss P       percentage of packets dropped (default 0.5)
//     --extra A:MS   add MS ms to packets to or from IPv4 address A (repeatable; slow DNS)
//     --seed N       seed of the jitter and loss (default 1)
//     --ready FILE   write "ready\n" to FILE once every TUN is attached
//
// Packets of one direction between two addresses are never reordered (a packet leaves no
// earlier than the one before it on the same output), as on a real path; jitter only spaces
// them. Pending packets wait in a binary heap ordered by due time; ppoll sleeps until the
// first is due or a TUN is readable. On SIGTERM or SIGINT it prints its counters and CPU time
// to standard error and exits 0.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define MAX_PORTS 8
#define MAX_EXTRA 64
#define MAX_PACKET 65536
#define HASH_SLOTS 65536

struct port {
    int fd;
    uint32_t prefix, mask;
    const char *name;
};

struct packet {
    uint64_t due;    // CLOCK_MONOTONIC, ns
    uint64_t order;  // arrival order: ties leave in arrival order
    int port;
    uint32_t length;
    unsigned char data[];
};

static struct port ports[MAX_PORTS];
static int port_count;
static uint32_t extra_address[MAX_EXTRA];
static uint64_t extra_ns[MAX_EXTRA];
static int extra_count;
static struct packet **heap;
static size_t heap_count, heap_capacity, heap_peak;
// The last due time per (output port, source, destination) hash slot: no reordering in a flow.
static uint64_t last_due[HASH_SLOTS];
static volatile sig_atomic_t stopping;
static uint64_t forwarded, dropped_loss, dropped_unroutable, dropped_write, received_bytes;
static uint64_t rng_state = 1;

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

// xorshift64*: deterministic for a seed, fast, good enough for jitter and loss.
static uint64_t next_random(void) {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ull;
}

static double uniform(void) { return (double)(next_random() >> 11) / 9007199254740992.0; }

static int earlier(const struct packet *a, const struct packet *b) {
    return a->due < b->due || (a->due == b->due && a->order < b->order);
}

static void heap_push(struct packet *p) {
    if (heap_count == heap_capacity) {
        size_t capacity = heap_capacity ? heap_capacity * 2 : 4096;
        struct packet **grown = realloc(heap, capacity * sizeof *heap);
        if (!grown) {
            free(p);
            dropped_write++;
            return;
        }
        heap = grown;
        heap_capacity = capacity;
    }
    size_t i = heap_count++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!earlier(p, heap[parent])) break;
        heap[i] = heap[parent];
        i = parent;
    }
    heap[i] = p;
    if (heap_count > heap_peak) heap_peak = heap_count;
}

static struct packet *heap_pop(void) {
    struct packet *top = heap[0];
    struct packet *last = heap[--heap_count];
    size_t i = 0;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= heap_count) break;
        if (child + 1 < heap_count && earlier(heap[child + 1], heap[child])) child++;
        if (!earlier(heap[child], last)) break;
        heap[i] = heap[child];
        i = child;
    }
    if (heap_count > 0) heap[i] = last;
    return top;
}

static void fail(const char *what) {
    fprintf(stderr, "wan-delay: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void usage(const char *message) {
    fprintf(stderr, "wan-delay: %s\nusage: wan-delay [--delay-ms N] [--jitter-ms N] [--loss P] "
                    "[--extra ADDR:MS]... [--seed N] [--ready FILE] NETNS:TUN:PREFIX/LEN...\n",
            message);
    exit(64);
}

static void parse_prefix(const char *text, uint32_t *prefix, uint32_t *mask) {
    char address[64];
    const char *slash = strchr(text, '/');
    if (!slash || (size_t)(slash - text) >= sizeof address) usage("a PORT needs PREFIX/LEN");
    memcpy(address, text, (size_t)(slash - text));
    address[slash - text] = 0;
    struct in_addr parsed;
    if (inet_pton(AF_INET, address, &parsed) != 1) usage("bad prefix address");
    int length = atoi(slash + 1);
    if (length < 0 || length > 32) usage("bad prefix length");
    *mask = length == 0 ? 0 : htonl(0xffffffffu << (32 - length));
    *prefix = parsed.s_addr & *mask;
}

// Joins the namespace at NETNS-PATH and attaches to its TUN device TUN-NAME.
static void open_port(char *spec) {
    if (port_count == MAX_PORTS) usage("too many ports");
    char *first = strchr(spec, ':');
    char *second = first ? strchr(first + 1, ':') : NULL;
    if (!second) usage("a PORT is NETNS-PATH:TUN-NAME:PREFIX/LEN");
    *first = 0;
    *second = 0;
    struct port *port = &ports[port_count];
    port->name = first + 1;
    parse_prefix(second + 1, &port->prefix, &port->mask);
    int ns = open(spec, O_RDONLY | O_CLOEXEC);
    if (ns < 0) fail(spec);
    if (setns(ns, CLONE_NEWNET) != 0) fail("setns");
    close(ns);
    int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) fail("/dev/net/tun");
    struct ifreq request;
    memset(&request, 0, sizeof request);
    request.ifr_flags = IFF_TUN | IFF_NO_PI;
    if (strlen(port->name) >= IFNAMSIZ) usage("TUN name too long");
    strcpy(request.ifr_name, port->name);
    if (ioctl(fd, TUNSETIFF, &request) != 0) fail("TUNSETIFF");
    port->fd = fd;
    port_count++;
}

static int route(uint32_t destination) {
    for (int i = 0; i < port_count; i++) {
        if ((destination & ports[i].mask) == ports[i].prefix) return i;
    }
    return -1;
}

static uint64_t extra_delay(uint32_t source, uint32_t destination) {
    uint64_t extra = 0;
    for (int i = 0; i < extra_count; i++) {
        if (extra_address[i] == source || extra_address[i] == destination) extra += extra_ns[i];
    }
    return extra;
}

static void on_signal(int signal_number) {
    (void)signal_number;
    stopping = 1;
}

int main(int argc, char **argv) {
    double delay_ms = 50, jitter_ms = 10, loss = 0.5;
    const char *ready = NULL;
    int i = 1;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
        const char *option = argv[i];
        if (i + 1 >= argc) usage("an option needs a value");
        const char *value = argv[++i];
        if (strcmp(option, "--delay-ms") == 0) delay_ms = atof(value);
        else if (strcmp(option, "--jitter-ms") == 0) jitter_ms = atof(value);
        else if (strcmp(option, "--loss") == 0) loss = atof(value);
        else if (strcmp(option, "--seed") == 0) rng_state = strtoull(value, NULL, 10) * 2654435761u + 1;
        else if (strcmp(option, "--ready") == 0) ready = value;
        else if (strcmp(option, "--extra") == 0) {
            char address[64];
            const char *colon = strrchr(value, ':');
            if (!colon || (size_t)(colon - value) >= sizeof address || extra_count == MAX_EXTRA)
                usage("--extra is ADDRESS:MS");
            memcpy(address, value, (size_t)(colon - value));
            address[colon - value] = 0;
            struct in_addr parsed;
            if (inet_pton(AF_INET, address, &parsed) != 1) usage("bad --extra address");
            extra_address[extra_count] = parsed.s_addr;
            extra_ns[extra_count++] = (uint64_t)(atof(colon + 1) * 1e6);
        } else usage("unknown option");
    }
    if (delay_ms < 0 || jitter_ms < 0 || jitter_ms > delay_ms || loss < 0 || loss > 100)
        usage("need 0 <= jitter <= delay and 0 <= loss <= 100");
    if (i >= argc) usage("no PORT");
    for (; i < argc; i++) open_port(argv[i]);

    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);
    // A test runner may start us with every signal blocked: take TERM and INT back.
    sigset_t unblocked;
    sigemptyset(&unblocked);
    sigaddset(&unblocked, SIGTERM);
    sigaddset(&unblocked, SIGINT);
    sigprocmask(SIG_UNBLOCK, &unblocked, NULL);
    if (ready) {
        FILE *file = fopen(ready, "w");
        if (!file || fputs("ready\n", file) < 0 || fclose(file) != 0) fail(ready);
    }

    struct pollfd polls[MAX_PORTS];
    for (int p = 0; p < port_count; p++) polls[p] = (struct pollfd){.fd = ports[p].fd, .events = POLLIN};
    const uint64_t delay = (uint64_t)(delay_ms * 1e6), jitter = (uint64_t)(jitter_ms * 1e6);
    const double loss_fraction = loss / 100.0;
    unsigned char buffer[MAX_PACKET];
    uint64_t order = 0;
    while (!stopping) {
        uint64_t now = now_ns();
        // Send everything that is due.
        while (heap_count > 0 && heap[0]->due <= now) {
            struct packet *p = heap_pop();
            if (write(ports[p->port].fd, p->data, p->length) != (ssize_t)p->length) dropped_write++;
            else forwarded++;
            free(p);
        }
        struct timespec wait, *timeout = NULL;
        if (heap_count > 0) {
            uint64_t left = heap[0]->due - now;
            wait.tv_sec = (time_t)(left / 1000000000u);
            wait.tv_nsec = (long)(left % 1000000000u);
            timeout = &wait;
        }
        int ready_count = ppoll(polls, (nfds_t)port_count, timeout, NULL);
        if (ready_count < 0) {
            if (errno == EINTR) continue;
            fail("ppoll");
        }
        if (ready_count == 0) continue;
        now = now_ns();
        for (int p = 0; p < port_count; p++) {
            if (!(polls[p].revents & POLLIN)) continue;
            // A bounded batch per TUN, so that one busy side cannot starve the other.
            for (int batch = 0; batch < 256; batch++) {
                ssize_t length = read(ports[p].fd, buffer, sizeof buffer);
                if (length < 0) {
                    if (errno == EAGAIN || errno == EINTR) break;
                    fail("read");
                }
                if (length < 20 || (buffer[0] >> 4) != 4) continue;  // IPv4 only
                received_bytes += (uint64_t)length;
                uint32_t source, destination;
                memcpy(&source, buffer + 12, 4);
                memcpy(&destination, buffer + 16, 4);
                int out = route(destination);
                if (out < 0) {
                    dropped_unroutable++;
                    continue;
                }
                if (loss_fraction > 0 && uniform() < loss_fraction) {
                    dropped_loss++;
                    continue;
                }
                uint64_t due = now + delay + extra_delay(source, destination);
                if (jitter > 0) due = due - jitter + (uint64_t)(uniform() * (double)(2 * jitter));
                uint32_t slot = (source * 2654435761u ^ destination * 40503u ^ (uint32_t)out) % HASH_SLOTS;
                if (due < last_due[slot]) due = last_due[slot];
                last_due[slot] = due;
                struct packet *packet = malloc(sizeof *packet + (size_t)length);
                if (!packet) {
                    dropped_write++;
                    continue;
                }
                packet->due = due;
                packet->order = order++;
                packet->port = out;
                packet->length = (uint32_t)length;
                memcpy(packet->data, buffer, (size_t)length);
                heap_push(packet);
            }
        }
    }
    struct rusage usage_now;
    getrusage(RUSAGE_SELF, &usage_now);
    double cpu = (double)usage_now.ru_utime.tv_sec + usage_now.ru_utime.tv_usec / 1e6
                 + (double)usage_now.ru_stime.tv_sec + usage_now.ru_stime.tv_usec / 1e6;
    fprintf(stderr,
            "wan-delay: forwarded %llu packets (%llu bytes received), dropped %llu (loss) %llu (no route) %llu "
            "(write), peak queue %zu, CPU %.2f s (user %.2f, system %.2f)\n",
            (unsigned long long)forwarded, (unsigned long long)received_bytes, (unsigned long long)dropped_loss,
            (unsigned long long)dropped_unroutable, (unsigned long long)dropped_write, heap_peak, cpu,
            (double)usage_now.ru_utime.tv_sec + usage_now.ru_utime.tv_usec / 1e6,
            (double)usage_now.ru_stime.tv_sec + usage_now.ru_stime.tv_usec / 1e6);
    return 0;
}
