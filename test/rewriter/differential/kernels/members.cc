// Member chains through pointers, references and arrays; a pointer loaded
// on the way is an access of its own; locals are not recorded. Members
// named by pointers to members (`.*`, `->*`) are accesses of the member.
#include "harness.h"

struct Vec3 {
  float x, y, z;
};
struct Node {
  Vec3 arr[2];
  Node *next;
};

WGTRACE_DISPATCH void chains(const wgtrace::Workgroup &wg, Node *s, Node &r) {
  unsigned i = wg.id[0];
  s->arr[i].x = r.arr[i].y;
  s->next->arr[i].z += 1.0f;
  Node local{};
  local.arr[0].x = s[0].arr[1].z;
  r.arr[i].x = local.arr[0].x * 2.0f;
}

WGTRACE_DISPATCH void pick(const wgtrace::Workgroup &wg, Vec3 *v,
                           float Vec3::*from, float Vec3::*to) {
  Vec3 *p = v + wg.id[0];
  v[wg.id[0]].*to = p->*from;
  Vec3 local{};
  local.*to = local.*from;
}

int main() {
  Vec3 vecs[2] = {{1, 2, 3}, {4, 5, 6}};
  wgtrace::dispatch(pick, wgtrace::Grid{2, 1, 1}, vecs, &Vec3::z, &Vec3::x);
  diff::buffer("vecs", vecs, 2);
  for (unsigned w = 0; w < 2; ++w) {
    diff::bytes({w}, 'L', "vecs", w * sizeof(Vec3) + offsetof(Vec3, z), 4);
    diff::bytes({w}, 'S', "vecs", w * sizeof(Vec3) + offsetof(Vec3, x), 4);
  }

  Node nodes[2] = {};
  nodes[0].next = &nodes[1];
  nodes[1].arr[1].z = 3.0f;
  Node other{};
  other.arr[0].y = 5.0f;
  other.arr[1].y = 6.0f;
  wgtrace::dispatch(chains, wgtrace::Grid{2, 1, 1}, nodes, other);

  diff::addressBuffer("nodes", nodes, 2);
  // The floats the kernel computed, compared between the builds.
  float results[12];
  for (int n = 0; n < 2; ++n)
    for (int k = 0; k < 2; ++k) {
      results[n * 6 + k * 3] = nodes[n].arr[k].x;
      results[n * 6 + k * 3 + 1] = nodes[n].arr[k].y;
      results[n * 6 + k * 3 + 2] = nodes[n].arr[k].z;
    }
  diff::buffer("results", results, 12);
  diff::buffer("other", &other);
  const size_t next = offsetof(Node, next);
  for (unsigned w = 0; w < 2; ++w) {
    size_t arr = w * sizeof(Vec3);
    diff::bytes({w}, 'L', "other", arr + offsetof(Vec3, y), 4);
    diff::bytes({w}, 'S', "nodes", arr + offsetof(Vec3, x), 4);
    diff::bytes({w}, 'L', "nodes", next, sizeof(Node *));
    diff::bytes({w}, 'L', "nodes", sizeof(Node) + arr + offsetof(Vec3, z), 4);
    diff::bytes({w}, 'S', "nodes", sizeof(Node) + arr + offsetof(Vec3, z), 4);
    diff::bytes({w}, 'L', "nodes", sizeof(Vec3) + offsetof(Vec3, z), 4);
    diff::bytes({w}, 'S', "other", arr + offsetof(Vec3, x), 4);
  }
  return diff::finish();
}
