// Members of class templates in a project header (class_templates.h) on
// objects in kernel memory: each is copied as a function template and its
// call redirected with the object's template arguments
// (`::ct::Box_get_wgtrace_0<float>(box[i])`). Box<float>::get()'s one
// load of its private field is recorded once per call, on the Box's own
// bytes; Vec<double>'s getter, its norm2() calling dot() through `this`
// and its operator+= record their element accesses at the header's
// expressions, on the bytes of v[i] and v[2]. In a template kernel the
// getters' copies are called without arguments, deducing the class's
// (`::ct::Box_get_wgtrace_0(box[i])`): the same loads; so is dot()'s,
// whose other argument has its parameter's type and deduces the same
// (`::ct::Vec_dot_wgtrace_1(v[i], v[2])`; reported untraced before).
#include "class_templates.h"
#include "harness.h"

WGTRACE_DISPATCH void apply(const wgtrace::Workgroup &wg,
                            const ct::Box<float> *box, ct::Vec<double> *v,
                            double *out) {
  unsigned i = wg.id[0];
  out[i] = box[i].get() + v[i].x(); // @out
  out[i + 2] = v[i].norm2();        // @out2
  v[i] += v[2];
}

template <class T>
WGTRACE_DISPATCH void gather(const wgtrace::Workgroup &wg,
                             const ct::Box<T> *box, const ct::Vec<double> *v,
                             double *res) {
  unsigned i = wg.id[0];
  res[i] = box[i].get() + v[i].x(); // @res
  res[i + 2] = v[i].dot(v[2]);      // @res2
}

int main() {
  ct::Box<float> box[2] = {ct::Box<float>(1.5f), ct::Box<float>(2.5f)};
  ct::Vec<double> v[3] = {{{1, 2}}, {{3, 4}}, {{5, 6}}};
  double out[4] = {};
  wgtrace::dispatch(apply, wgtrace::Grid{2, 1, 1}, box, v, out);
  double res[4] = {};
  wgtrace::dispatch(gather<float>, wgtrace::Grid{2, 1, 1}, box, v, res);

  diff::buffer("box", box, 2);
  diff::buffer("v", v, 3);
  diff::buffer("out", out, 4);
  diff::buffer("res", res, 4);
  // Element K of v[I], as site Site.
  auto Element = [](unsigned W, char Kind, unsigned I, unsigned K,
                    const char *Site) {
    diff::bytes({W}, Kind, "v", I * sizeof(ct::Vec<double>) + K * 8, 8,
                Site);
  };
  for (unsigned w = 0; w < 2; ++w) {
    diff::bytes({w}, 'L', "box", w * sizeof(ct::Box<float>), 4, "get:m_v");
    Element(w, 'L', w, 0, "x:e[0]");
    diff::store<double>({w}, "out", w, "out:out[i]");
    // norm2() is dot(*this): both operands are v[i].
    Element(w, 'L', w, 0, "dot:e[0]");
    Element(w, 'L', w, 0, "dot:o.e[0]");
    Element(w, 'L', w, 1, "dot:e[N~-~1]");
    Element(w, 'L', w, 1, "dot:o.e[N~-~1]");
    diff::store<double>({w}, "out", 2 + w, "out2:out[i~+~2]");
    // v[i] += v[2].
    Element(w, 'L', 2, 0, "add0:o.e[0]");
    Element(w, 'L', w, 0, "add0:e[0]");
    Element(w, 'S', w, 0, "add0:e[0]");
    Element(w, 'L', 2, 1, "add1:o.e[N~-~1]");
    Element(w, 'L', w, 1, "add1:e[N~-~1]");
    Element(w, 'S', w, 1, "add1:e[N~-~1]");
  }
  // gather<float>, after apply: the same workgroup ids, a second launch.
  for (unsigned w = 0; w < 2; ++w) {
    diff::bytes({w}, 'L', "box", w * sizeof(ct::Box<float>), 4, "get:m_v");
    Element(w, 'L', w, 0, "x:e[0]");
    diff::store<double>({w}, "res", w, "res:res[i]");
    Element(w, 'L', w, 0, "dot:e[0]");
    Element(w, 'L', 2, 0, "dot:o.e[0]");
    Element(w, 'L', w, 1, "dot:e[N~-~1]");
    Element(w, 'L', 2, 1, "dot:o.e[N~-~1]");
    diff::store<double>({w}, "res", 2 + w, "res2:res[i~+~2]");
  }
  return diff::finish();
}
