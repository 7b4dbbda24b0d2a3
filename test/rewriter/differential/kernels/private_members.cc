// LULESH's Domain reads its private fields in members defined in its
// header; a kernel calls them on a Domain in its memory (private_members.h).
// Each member is copied as a free function naming the private fields
// through explicit instantiations: the getters' one load of their field
// (`dom->numElem()`, `dom->scale()`, once per call), the element loads of
// corner(), a private member called through `this` (weighted() calling
// scaled()) and bump()'s update are recorded, at the header's
// expressions, on the Domain's own bytes and on the arrays it points to.
// The reference accessor x() names memory: the kernel's load is recorded.
#include "harness.h"
#include "private_members.h"

WGTRACE_DISPATCH void gather(const wgtrace::Workgroup &wg, pm::Domain *dom,
                             double *out) {
  int i = static_cast<int>(wg.id[0]);
  out[i] = dom->x(i) * dom->scale() + dom->numElem();   // @out
  out[i + 2] = *dom->corner(i) + dom->weighted(i);      // @out2
  dom->bump(i);
}

// The fields' offsets: offsetof cannot name private members from here.
static_assert(sizeof(pm::Domain) == 32, "x86-64 layout of pm::Domain");
enum : unsigned { X = 0, Start = 8, NumElem = 16, Scale = 24 };

int main() {
  double xs[2] = {1.5, 2.5};
  int starts[2] = {1, 0};
  pm::Domain dom(xs, starts, 2, 0.5);
  double out[4] = {};
  wgtrace::dispatch(gather, wgtrace::Grid{2, 1, 1}, &dom, out);

  diff::addressBuffer("dom", &dom);
  diff::buffer("xs", xs, 2);
  diff::buffer("starts", starts, 2);
  diff::buffer("out", out, 4);
  auto Field = [](unsigned W, unsigned Offset, unsigned Length,
                  const char *Site) {
    diff::bytes({W}, 'L', "dom", Offset, Length, Site);
  };
  for (unsigned w = 0; w < 2; ++w) {
    diff::load<double>({w}, "xs", w, "out:dom->x(i)");
    Field(w, Scale, 8, "scale:m_scale");
    Field(w, NumElem, 4, "num:m_numElem");
    diff::store<double>({w}, "out", w, "out:out[i]");
    // corner(): the pointer field twice, the element of the index.
    Field(w, Start, 8, "corner:m_start");
    Field(w, Start, 8, "corner:m_start");
    diff::load<int>({w}, "starts", w, "corner:m_start[i]");
    diff::load<int>({w}, "starts", starts[w], "out2:*dom->corner(i)");
    // weighted(): scaled()'s loads through `this`, then its own.
    Field(w, Scale, 8, "scaled:m_scale");
    Field(w, X, 8, "scaled:m_x");
    diff::load<double>({w}, "xs", w, "scaled:m_x[i]");
    Field(w, Scale, 8, "weighted:m_scale");
    diff::store<double>({w}, "out", 2 + w, "out2:out[i~+~2]");
    Field(w, X, 8, "bump:m_x");
    diff::update<double>({w}, "xs", w, "bump:m_x[i]");
    Field(w, Scale, 8, "bump:m_scale");
  }
  return diff::finish();
}
