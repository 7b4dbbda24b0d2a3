// Members of a header class defined outside it (out_of_class.h, as
// Quicksilver's ParticleVault::pushParticle): each is copied as a free
// function, so a kernel's push(), invalidate() and sum() record the
// vault's field loads and the element accesses at the header's
// expressions, on the Vault's own bytes and on the arrays it points to.
#include "out_of_class.h"
#include "harness.h"

WGTRACE_DISPATCH void fill(const wgtrace::Workgroup &wg, ooc::Vault *vault,
                           double *out) {
  int i = static_cast<int>(wg.id[0]);
  vault->push(i, 0.5 + i);
  vault->invalidate(i);
  out[i] = vault->sum(i); // @out
}

enum : unsigned { V = 0, Species = 8 };

int main() {
  double v[4] = {0, 10, 0, 20};
  int species[4] = {0, 0, 0, 0};
  ooc::Vault vault(v, species);
  double out[2] = {};
  wgtrace::dispatch(fill, wgtrace::Grid{2, 1, 1}, &vault, out);

  diff::addressBuffer("vault", &vault);
  diff::buffer("v", v, 4);
  diff::buffer("species", species, 4);
  diff::buffer("out", out, 2);
  auto Field = [](unsigned W, unsigned Offset, const char *Site) {
    diff::bytes({W}, 'L', "vault", Offset, 8, Site);
  };
  for (unsigned w = 0; w < 2; ++w) {
    Field(w, V, "push:m_v");
    diff::store<double>({w}, "v", 2 * w, "push:m_v[slot(i)]");
    Field(w, Species, "push2:m_species");
    diff::store<int>({w}, "species", 2 * w, "push2:m_species[slot(i)]");
    Field(w, Species, "inv:m_species");
    diff::store<int>({w}, "species", 2 * w + 1, "inv:m_species[slot(i)~+~1]");
    Field(w, V, "sum:m_v");
    diff::load<double>({w}, "v", 2 * w, "sum:m_v[slot(i)]");
    Field(w, V, "sum:m_v");
    diff::load<double>({w}, "v", 2 * w + 1, "sum:m_v[slot(i)~+~1]");
    diff::store<double>({w}, "out", w, "out:out[i]");
  }
  return diff::finish();
}
