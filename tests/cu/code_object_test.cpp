#include "models/cu/isa/code_loader.h"
#include "models/cu/isa/code_object.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <random>

#include "tests/cu/kernel_builder.h"

using namespace tessera::isa;

namespace {

const char* kLoaderKernels = R"CL(
__kernel void vadd(__global const float* a, __global const float* b, __global float* c, int n) {
  int i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i];
}
__kernel void grid3d(__global int* out, __local int* tmp, uint k) {
  size_t i = get_global_id(0) + get_global_size(0) * (get_global_id(1) + get_global_size(1) * get_global_id(2));
  tmp[get_local_id(0)] = (int)i;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = tmp[get_local_size(0) - 1 - get_local_id(0)] + (int)k;
}
__kernel void spill(__global const int* in, __global int* out, int k) {
  int arr[64];
  int g = get_global_id(0);
  for (int i = 0; i < 64; ++i) arr[i] = in[(g + i) & 63] * i;
  out[g] = arr[(g * k) & 63];
}
)CL";

std::vector<uint8_t> file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string loader_kernels() { return tessera::test::build_kernel("loader_kernels", kLoaderKernels); }

}  // namespace

TEST_CASE("code object: kernels, descriptors and metadata of a clang-14 gfx90a object", "[code_object]") {
  const CodeObject co = CodeObject::load_file(loader_kernels());
  CHECK(co.abi_version() == 2);  // code object v4
  CHECK(co.target().find("gfx90a") != std::string::npos);
  REQUIRE(co.kernels().size() == 3);
  CHECK(co.kernel_names().find("vadd") != std::string::npos);
  CHECK(co.find_kernel("nope") == nullptr);

  const KernelInfo* v = co.find_kernel("vadd");
  REQUIRE(v);
  CHECK(v->symbol == "vadd.kd");
  CHECK(co.in_text(v->entry_address, 4));
  CHECK(v->entry_address % 256 == 0);
  const auto ex = v->explicit_args();
  REQUIRE(ex.size() == 4);
  CHECK(ex[0]->value_kind == "global_buffer");
  CHECK(ex[0]->is_const);
  CHECK(ex[0]->type_name == "float*");
  CHECK(ex[0]->address_space == "global");
  CHECK(ex[2]->offset == 16);
  CHECK_FALSE(ex[2]->is_const);
  CHECK(ex[3]->value_kind == "by_value");
  CHECK(ex[3]->size == 4);
  CHECK(ex[3]->offset == 24);
  // Hidden arguments follow, global offsets first.
  const KernelArg& hx = v->args[4];
  CHECK(hx.value_kind == "hidden_global_offset_x");
  CHECK(hx.offset == 32);
  CHECK(v->kernarg_segment_size >= 56);
  CHECK(v->descriptor.kernarg_size == v->kernarg_segment_size);

  const KernelDescriptor& d = v->descriptor;
  CHECK(d.enable_kernarg_segment_ptr);
  CHECK(d.enable_dispatch_ptr);  // get_local_size reads the dispatch packet
  CHECK(d.enable_workgroup_id[0]);
  CHECK_FALSE(d.enable_workgroup_id[1]);
  CHECK(d.vgpr_workitem_id == 0);
  CHECK_FALSE(d.wavefront_size32);
  CHECK(d.ieee_mode);
  CHECK(d.dx10_clamp);
  CHECK(d.allocated_vgprs() >= v->vgpr_count);
  CHECK(d.accum_offset % 4 == 0);
  CHECK_FALSE(d.enable_private_segment);

  const KernelInfo* g = co.find_kernel("grid3d");
  REQUIRE(g);
  CHECK(g->descriptor.vgpr_workitem_id == 2);
  const auto gex = g->explicit_args();
  REQUIRE(gex.size() == 3);
  CHECK(gex[1]->value_kind == "dynamic_shared_pointer");
  CHECK(gex[1]->address_space == "local");

  const KernelInfo* s = co.find_kernel("spill");
  REQUIRE(s);
  CHECK(s->descriptor.enable_private_segment);
  CHECK(s->descriptor.private_segment_fixed_size >= 256);
  CHECK(s->private_segment_fixed_size == s->descriptor.private_segment_fixed_size);
}

TEST_CASE("code object: files that are not gfx90a code objects get clear errors", "[code_object]") {
  const std::vector<uint8_t> good = file_bytes(loader_kernels());
  REQUIRE(good.size() > 1000);

  SECTION("missing file") {
    CHECK_THROWS_WITH(CodeObject::load_file("/nonexistent/x.hsaco"), Catch::Contains("cannot open"));
  }
  SECTION("empty and tiny") {
    CHECK_THROWS_WITH(CodeObject::load({}, "empty"), Catch::Contains("too small"));
    CHECK_THROWS_AS(CodeObject::load({0x7f, 'E', 'L', 'F'}, "tiny"), CodeObjectError);
  }
  SECTION("text is not ELF") {
    std::vector<uint8_t> txt(200, 'a');
    CHECK_THROWS_WITH(CodeObject::load(txt, "t"), Catch::Contains("not an ELF"));
  }
  SECTION("wrong machine: a host ELF") {
    CHECK_THROWS_WITH(CodeObject::load_file("/bin/true"), Catch::Contains("not AMDGPU"));
  }
  SECTION("wrong GPU architecture") {
    std::vector<uint8_t> b = good;
    b[48] = 0x30;  // e_flags low byte: EF_AMDGPU_MACH_AMDGCN_GFX908
    CHECK_THROWS_WITH(CodeObject::load(b, "x"), Catch::Contains("gfx908") && Catch::Contains("expected gfx90a"));
  }
  SECTION("truncated anywhere") {
    for (size_t len : {size_t(64), size_t(100), good.size() / 4, good.size() / 2, good.size() - 100, good.size() - 1}) {
      std::vector<uint8_t> b(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(len));
      CHECK_THROWS_AS(CodeObject::load(b, "truncated"), CodeObjectError);
    }
  }
  SECTION("corrupted metadata note") {
    std::vector<uint8_t> b = good;
    // The msgpack note starts right after its 12-byte header and "AMDGPU\0\0" name.
    const std::string needle = "amdhsa.kernels";
    auto it = std::search(b.begin(), b.end(), needle.begin(), needle.end());
    REQUIRE(it != b.end());
    *(it - 1) = 0xc1;  // a reserved msgpack type byte in place of the key's string header
    CHECK_THROWS_WITH(CodeObject::load(b, "m"), Catch::Contains("metadata"));
  }
}

TEST_CASE("code object: random corruption never crashes the loader", "[code_object]") {
  std::mt19937 rng(1234);
  // The second file has data segments and relocations for the image builder.
  for (const std::string& path :
       {loader_kernels(), std::string(TESSERA_BINARY_DIR) + "/sw/kernels/program_globals.hsaco"}) {
    const std::vector<uint8_t> good = file_bytes(path);
    int errors = 0, loaded = 0;
    for (int trial = 0; trial < 300; ++trial) {
      std::vector<uint8_t> b = good;
      const int flips = 1 + trial % 8;
      for (int f = 0; f < flips; ++f) b[rng() % b.size()] = static_cast<uint8_t>(rng());
      try {
        CodeObject co = CodeObject::load(b, "fuzz");
        // A corruption the loader accepts must still leave consistent kernels
        // and an image that can be built or is refused with a clear error.
        for (const KernelInfo& k : co.kernels()) CHECK(co.in_text(k.entry_address, 4));
        const std::vector<uint8_t> image = relocated_image(co, 0x1'0000'0000ull);
        CHECK(image.size() == co.image_size());
        ++loaded;
      } catch (const CodeObjectError&) {
        ++errors;
      }
    }
    CHECK(errors + loaded == 300);
    CHECK(errors > 0);
  }
  // Random garbage of every small size.
  for (size_t n = 0; n < 300; n += 7) {
    std::vector<uint8_t> b(n);
    for (auto& x : b) x = static_cast<uint8_t>(rng());
    if (n >= 4) b[0] = 0x7f, b[1] = 'E', b[2] = 'L', b[3] = 'F';
    CHECK_THROWS_AS(CodeObject::load(b, "garbage"), CodeObjectError);
  }
}

// The metadata's segment sizes are allocated from at launch: a file that says
// `.kernarg_segment_size: -1` once made the host allocate 12.6 GB.
TEST_CASE("code object: segment sizes beyond what gfx90a can have are refused", "[code_object]") {
  const std::vector<uint8_t> good = file_bytes(loader_kernels());
  // The msgpack key, then its value: a positive fixint (one byte) or a uint8/16/32.
  const std::string key = ".kernarg_segment_size";
  auto at = std::search(good.begin(), good.end(), key.begin(), key.end());
  REQUIRE(at != good.end());
  std::vector<uint8_t> b = good;
  size_t v = static_cast<size_t>(at - good.begin()) + key.size();
  // The same number of bytes, now -1: 0xff (negative fixint) or 0xd0/0xd1/0xd2 then 0xff...
  const uint8_t tag = b[v];
  const size_t width = tag < 0x80 ? 0 : tag == 0xcc ? 1 : tag == 0xcd ? 2 : tag == 0xce ? 4 : 99;
  REQUIRE(width != 99);
  if (width == 0) {
    b[v] = 0xff;
  } else {
    b[v] = static_cast<uint8_t>(tag == 0xcc ? 0xd0 : tag == 0xcd ? 0xd1 : 0xd2);
    for (size_t k = 1; k <= width; ++k) b[v + k] = 0xff;
  }
  CHECK_THROWS_WITH(CodeObject::load(b, "x"), Catch::Contains("metadata kernarg segment size 4294967295 is larger than 65536 bytes"));
}
