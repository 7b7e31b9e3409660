#include "strata/lease.h"
strata_lease_client *strata_lease_open(const char *uri, const char *label, double ttl, strata_error *err) {
  (void)uri; (void)label; (void)ttl;
  strata_error_in(err, STRATA_ESTATE, "strata_lease_open", "not yet");
  return NULL;
}
void strata_lease_close(strata_lease_client *c) { (void)c; }
const char *strata_lease_holder(const strata_lease_client *c) { (void)c; return ""; }
strata_status strata_lease_acquire(strata_lease_client *c, const char *scope, strata_lease_info *out, strata_error *err) {
  (void)c; (void)scope; (void)out; return strata_error_in(err, STRATA_ESTATE, "x", "not yet"); }
strata_status strata_lease_renew(strata_lease_client *c, strata_lease_info *lost, size_t max, size_t *n_lost, strata_error *err) {
  (void)c; (void)lost; (void)max; (void)n_lost; return strata_error_in(err, STRATA_ESTATE, "x", "not yet"); }
strata_status strata_lease_release(strata_lease_client *c, const char *scope, strata_error *err) {
  (void)c; (void)scope; return strata_error_in(err, STRATA_ESTATE, "x", "not yet"); }
strata_status strata_lease_release_all(strata_lease_client *c, strata_error *err) {
  (void)c; return strata_error_in(err, STRATA_ESTATE, "x", "not yet"); }
strata_status strata_lease_check(strata_lease_client *c, const char *scope, int64_t fence, strata_error *err) {
  (void)c; (void)scope; (void)fence; return strata_error_in(err, STRATA_ESTATE, "x", "not yet"); }
strata_status strata_lease_list(strata_lease_client *c, strata_lease_each each, void *ud, strata_error *err) {
  (void)c; (void)each; (void)ud; return strata_error_in(err, STRATA_ESTATE, "x", "not yet"); }
