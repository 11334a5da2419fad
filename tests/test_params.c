/* test_params.c — parameter parsing, domains, constraints, case identity. */
#include "testutil.h"
#include "../results/case.h"
#include "../harness/run/plan.h"
#include "../harness/run/source.h"
#include "../suites/lib/warpvotes.h"
#include "../suites/suite.h"

static void split(void **st)
{
    (void)st;
    char n[32], v[64], why[256];
    assert_int_equal(dh_param_split(" paths = 4 ", n, sizeof n, v, sizeof v, why, sizeof why), 0);
    assert_string_equal(n, "paths");
    assert_string_equal(v, "4");
    assert_int_equal(dh_param_split("paths", n, sizeof n, v, sizeof v, why, sizeof why), -DH_E_USAGE);
    assert_non_null(strstr(why, "NAME=VALUE"));
    assert_int_equal(dh_param_split("=4", n, sizeof n, v, sizeof v, why, sizeof why), -DH_E_USAGE);
    assert_int_equal(dh_param_split("a=", n, sizeof n, v, sizeof v, why, sizeof why), -DH_E_USAGE);
}

static void domains(void **st)
{
    (void)st;
    double x;
    char why[256];
    assert_int_equal(dh_domain_check("int:2,4,8", "4", &x, why, sizeof why), 0);
    assert_true(x == 4);
    assert_int_equal(dh_domain_check("int:2,4,8", "3", &x, why, sizeof why), -DH_E_USAGE);
    assert_non_null(strstr(why, "2,4,8"));             /* lists the valid values */
    assert_int_equal(dh_domain_check("int:1..2", "0", &x, why, sizeof why), -DH_E_USAGE);
    assert_non_null(strstr(why, "1..2"));
    assert_int_equal(dh_domain_check("int:1..2", "1.5", &x, why, sizeof why), -DH_E_USAGE);
    assert_int_equal(dh_domain_check("real:0..1", "0.25", &x, why, sizeof why), 0);
    assert_true(x == 0.25);
    assert_int_equal(dh_domain_check("real:0..1", "nan", &x, why, sizeof why), -DH_E_USAGE);
    assert_int_equal(dh_domain_check("enum:hot,dgi", "dgi", &x, why, sizeof why), 0);
    assert_true(x == 1);
    assert_int_equal(dh_domain_check("enum:hot,dgi", "ho", &x, why, sizeof why), -DH_E_USAGE);
    assert_non_null(strstr(why, "hot,dgi"));
}

static void fill_case(struct dh_case *c, const char *variant)
{
    memset(c, 0, sizeof *c);
    c->bench = dh_bench_find("micro", "branch");
    assert_non_null(c->bench);
    snprintf(c->suite, sizeof c->suite, "micro");
    snprintf(c->bench_name, sizeof c->bench_name, "branch");
    snprintf(c->variant, sizeof c->variant, "%s", variant);
    snprintf(c->backend, sizeof c->backend, "opencl");
    snprintf(c->device_name, sizeof c->device_name, "dev/x");
    snprintf(c->size, sizeof c->size, "small");
}

static void identity(void **st)
{
    (void)st;
    struct dh_case a, b;
    fill_case(&a, "gpu_tdr");
    fill_case(&b, "gpu_tdr");
    dh_pset_put(&a.params, "paths", "4", 4, DH_P_WORKLOAD);
    dh_pset_put(&a.params, "alg", "dgi", 1, DH_P_CHOICE);
    dh_pset_put(&a.params, "wg", "256", 256, DH_P_TUNABLE);
    /* other order, other tunable: same identity */
    dh_pset_put(&b.params, "wg", "128", 128, DH_P_TUNABLE);
    dh_pset_put(&b.params, "alg", "dgi", 1, DH_P_CHOICE);
    dh_pset_put(&b.params, "paths", "4", 4, DH_P_WORKLOAD);
    dh_case_identity(&a);
    dh_case_identity(&b);
    assert_string_equal(a.id, b.id);
    assert_string_equal(a.key, b.key);
    assert_null(strstr(a.id, "wg="));
    assert_non_null(strstr(a.id, "gpu_tdr[alg=dgi]"));
    assert_non_null(strstr(a.id, "dev_x"));             /* no '/' from the device name */
    /* a choice or a workload value changes it */
    dh_pset_put(&b.params, "alg", "hot", 0, DH_P_CHOICE);
    dh_case_identity(&b);
    assert_string_not_equal(a.id, b.id);
    dh_pset_put(&b.params, "alg", "dgi", 1, DH_P_CHOICE);
    dh_pset_put(&b.params, "paths", "8", 8, DH_P_WORKLOAD);
    dh_case_identity(&b);
    assert_string_not_equal(a.key, b.key);
}

/* warp-vote forms: cuda and hip on NVIDIA yes, opencl no, hip on AMD only
 * when asked for */
static void warp_votes(void **st)
{
    (void)st;
    struct dh_case c;
    memset(&c, 0, sizeof c);
    struct dh_device_info nv = {.vendor = "NVIDIA"}, amd = {.vendor = "AMD"};
    char why[256];
    snprintf(c.backend, sizeof c.backend, "cuda");
    assert_int_equal(dh_warp_votes_check(&c, &nv, "dgi_scan", "dgi", why, sizeof why), 0);
    snprintf(c.backend, sizeof c.backend, "opencl");
    assert_int_equal(dh_warp_votes_check(&c, &nv, "dgi_scan", "dgi", why, sizeof why),
                     -DH_E_CONSTRAINT);
    assert_non_null(strstr(why, "portable forms dgi"));
    snprintf(c.backend, sizeof c.backend, "hip");
    assert_int_equal(dh_warp_votes_check(&c, &nv, "dgi_scan", "dgi", why, sizeof why), 0);
    unsetenv("DH_HIP_WARP_VOTES");
    assert_int_equal(dh_warp_votes_check(&c, &amd, "dgi_scan", "dgi", why, sizeof why),
                     -DH_E_CONSTRAINT);
    assert_non_null(strstr(why, "DH_HIP_WARP_VOTES=1"));
    setenv("DH_HIP_WARP_VOTES", "1", 1);
    assert_int_equal(dh_warp_votes_check(&c, &amd, "dgi_scan", "dgi", why, sizeof why), 0);
    unsetenv("DH_HIP_WARP_VOTES");
}

static void constraints(void **st)
{
    (void)st;
    struct dh_device_info dev = {.warp_width = 32, .max_wg = 1024, .local_mem_bytes = 49152};
    snprintf(dev.name, sizeof dev.name, "test");
    struct dh_case c;
    char why[256];
    fill_case(&c, "gpu_tdr");
    dh_pset_put(&c.params, "paths", "4", 4, DH_P_WORKLOAD);
    dh_pset_put(&c.params, "layers", "1", 1, DH_P_WORKLOAD);
    dh_pset_put(&c.params, "wg", "256", 256, DH_P_TUNABLE);
    dh_pset_put(&c.params, "nf", "16", 16, DH_P_TUNABLE);
    dh_pset_put(&c.params, "alg", "dgi", 1, DH_P_CHOICE);
    assert_int_equal(dh_space_check(&c, &dev, why, sizeof why), 0);
    assert_int_equal(c.bench->check(&c, &dev, why, sizeof why), 0);
    dh_pset_put(&c.params, "nf", "24", 24, DH_P_TUNABLE);
    assert_int_equal(dh_space_check(&c, &dev, why, sizeof why), -DH_E_CONSTRAINT);
    assert_non_null(strstr(why, "does not divide"));
    dh_pset_put(&c.params, "nf", "16", 16, DH_P_TUNABLE);
    dh_pset_put(&c.params, "wg", "48", 48, DH_P_TUNABLE);
    assert_int_equal(dh_space_check(&c, &dev, why, sizeof why), -DH_E_CONSTRAINT);
    assert_non_null(strstr(why, "warp width"));
    dh_pset_put(&c.params, "wg", "2048", 2048, DH_P_TUNABLE);
    assert_int_equal(dh_space_check(&c, &dev, why, sizeof why), -DH_E_CONSTRAINT);
    dh_pset_put(&c.params, "wg", "256", 256, DH_P_TUNABLE);
    dh_pset_put(&c.params, "alg", "hot", 0, DH_P_CHOICE);
    assert_int_equal(c.bench->check(&c, &dev, why, sizeof why), -DH_E_CONSTRAINT);
    assert_non_null(strstr(why, "alg=hot"));
    /* local memory that does not fit */
    dh_pset_put(&c.params, "alg", "dgi", 1, DH_P_CHOICE);
    dh_pset_put(&c.params, "nf", "1", 1, DH_P_TUNABLE);
    dev.local_mem_bytes = 2048;
    assert_int_equal(c.bench->check(&c, &dev, why, sizeof why), -DH_E_CONSTRAINT);
    assert_non_null(strstr(why, "local memory"));
}

/* One space of code-generation knobs: every benchmark declares each
 * knob for all its variants (a knob given to gpu_tdr alone left the
 * baseline without the register cap that made the technique fast), with
 * the same domain and default; the build of any variant carries it; the
 * backends that cannot express it take its "none" value only. */
static void codegen_knobs(void **st)
{
    (void)st;
    static const char *const knobs[] = DH_CODEGEN_KNOB_NAMES;
    static const struct dh_param_def ref[] = {DH_CODEGEN_KNOBS, {0}};
    for (int i = 0; i < dh_bench_count(); i++) {
        const struct dh_bench *b = dh_bench_at(i);
        for (size_t k = 0; k < sizeof knobs / sizeof *knobs; k++) {
            const struct dh_param_def *d = dh_param_find(b->params, knobs[k]);
            if (!d)
                fail_msg("%s/%s: no code-generation knob %s (end its params with "
                         "DH_CODEGEN_KNOBS)", b->suite, b->name, knobs[k]);
            if (d->variants || d->when)
                fail_msg("%s/%s: knob %s declared for %s%s%s only: every variant takes it",
                         b->suite, b->name, knobs[k], d->variants ? d->variants : "",
                         d->when ? " when " : "", d->when ? d->when : "");
            const struct dh_param_def *r = dh_param_find(ref, knobs[k]);
            assert_non_null(r);
            assert_int_equal(d->kind, DH_P_TUNABLE);
            assert_string_equal(d->domain, r->domain);
            assert_string_equal(d->def, r->def);
        }
    }
    /* the build options of a baseline case carry it, on CUDA */
    struct dh_device_info dev = {.warp_width = 32, .max_wg = 1024};
    snprintf(dev.name, sizeof dev.name, "test");
    struct dh_case c;
    char why[256], opt[4096];
    fill_case(&c, "baseline");
    dh_pset_put(&c.params, "wg", "512", 512, DH_P_TUNABLE);
    dh_pset_put(&c.params, "minb", "2", 2, DH_P_TUNABLE);
    assert_int_equal(dh_source_options(&c, &dev, opt, sizeof opt), 0);
    assert_non_null(strstr(opt, "-D DH_MINB=2 "));
    /* OpenCL cannot express launch bounds: refused there, named */
    assert_int_equal(dh_space_check(&c, &dev, why, sizeof why), -DH_E_CONSTRAINT);
    assert_non_null(strstr(why, "launch bounds are CUDA's"));
    snprintf(c.backend, sizeof c.backend, "cuda");
    assert_int_equal(dh_space_check(&c, &dev, why, sizeof why), 0);
    dh_pset_put(&c.params, "minb", "8", 8, DH_P_TUNABLE);   /* 8 x 512 > 2048 */
    assert_int_equal(dh_space_check(&c, &dev, why, sizeof why), -DH_E_CONSTRAINT);
    assert_non_null(strstr(why, "2048 threads"));
    dh_pset_put(&c.params, "minb", "0", 0, DH_P_TUNABLE);
    assert_int_equal(dh_source_options(&c, &dev, opt, sizeof opt), 0);
    assert_null(strstr(opt, "DH_MINB"));
}

/* an integer in a list domain is matched by value ("04" is 4; it was
 * refused as "4 is not one of: 2,4,8"), and a refusal names the value as
 * given */
static void int_list_by_value(void **st)
{
    (void)st;
    double num = 0;
    char why[256] = "";
    assert_int_equal(dh_domain_check("int:2,4,8", "04", &num, why, sizeof why), 0);
    assert_true(num == 4);
    assert_int_not_equal(dh_domain_check("int:2,4,8", "05", &num, why, sizeof why), 0);
    assert_non_null(strstr(why, "05 is not one of: 2,4,8"));
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(int_list_by_value), cmocka_unit_test(split), cmocka_unit_test(domains), cmocka_unit_test(identity),
        cmocka_unit_test(constraints), cmocka_unit_test(warp_votes), cmocka_unit_test(codegen_knobs),
    };
    return cmocka_run_group_tests_name("params", t, NULL, NULL);
}
