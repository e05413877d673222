// Built and run by benchmarks/bench-cms-vs-pkcs7.sh (a measurement, not a test).
// Per-message cost of PKCS#7 vs CMS verification (signature only, as the batch path does after
// the chain cache): parse + verify the example N times.
#include <openssl/pkcs7.h>
#include <openssl/cms.h>
#include <openssl/x509.h>
#include <openssl/bio.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
int main(int argc, char **argv) {
    FILE *f = fopen(argv[1], "rb"); static unsigned char buf[1 << 20]; size_t n = fread(buf, 1, sizeof buf, f); fclose(f);
    int rounds = atoi(argv[2]);
    for (int pass = 0; pass < 3; pass++) {
        double t0 = now();
        for (int i = 0; i < rounds; i++) {
            const unsigned char *p = buf; PKCS7 *p7 = d2i_PKCS7(NULL, &p, (long)n);
            BIO *out = BIO_new(BIO_s_null());
            if (PKCS7_verify(p7, NULL, NULL, NULL, out, PKCS7_NOVERIFY) != 1) { fprintf(stderr, "p7 fail\n"); return 1; }
            BIO_free(out); PKCS7_free(p7);
        }
        double t1 = now();
        for (int i = 0; i < rounds; i++) {
            const unsigned char *p = buf; CMS_ContentInfo *cms = d2i_CMS_ContentInfo(NULL, &p, (long)n);
            BIO *out = BIO_new(BIO_s_null());
            if (CMS_verify(cms, NULL, NULL, NULL, out, CMS_NO_SIGNER_CERT_VERIFY) != 1) { fprintf(stderr, "cms fail\n"); return 1; }
            BIO_free(out); CMS_ContentInfo_free(cms);
        }
        double t2 = now();
        printf("pass %d: PKCS7 parse+verify %.1f us/msg, CMS parse+verify %.1f us/msg, CMS/PKCS7 %.2f\n", pass,
               (t1 - t0) / rounds * 1e6, (t2 - t1) / rounds * 1e6, (t2 - t1) / (t1 - t0));
    }
    return 0;
}
