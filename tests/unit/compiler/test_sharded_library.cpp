// The embedded builtin library's shards and index (Builtins/ShardedLibrary.h).
#include "Builtins/ShardedLibrary.h"
#include "Builtins/ShardedLibraryFormat.h"
#include "Support/Embedded.h"

#include <catch2/catch.hpp>

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>

#include <cstring>
#include <string>

namespace {

std::string copyOfEmbedded() {
    return std::string(kc::embedded::builtinLibrary());
}

} // namespace

TEST_CASE("the embedded library: every symbol is defined by the shard the index names",
          "[compiler][library]") {
    const kc::ShardedLibrary& Library = kc::embeddedLibrary();
    REQUIRE(Library.valid());
    REQUIRE(Library.shardCount() > 100);
    REQUIRE(Library.symbolCount() > 1000);
    for (uint32_t I = 1; I < Library.symbolCount(); ++I)
        REQUIRE(Library.symbol(I - 1) < Library.symbol(I));

    llvm::LLVMContext Context;
    for (uint32_t I = 0; I < Library.symbolCount(); I += 53) {
        const llvm::StringRef Name = Library.symbol(I);
        const std::optional<uint32_t> Shard = Library.shardOf(Name);
        REQUIRE(Shard);
        auto M = llvm::getLazyBitcodeModule(llvm::MemoryBufferRef(Library.shard(*Shard), "shard"),
                                            Context);
        REQUIRE(static_cast<bool>(M));
        const llvm::GlobalValue* Defined = (*M)->getNamedValue(Name);
        INFO(Name.str());
        REQUIRE(Defined != nullptr);
        REQUIRE_FALSE(Defined->isDeclaration());
    }
    // Overloads of one builtin share a shard.
    REQUIRE(Library.shardOf("_Z3sinf") == Library.shardOf("_Z3sinDv4_f"));
    REQUIRE(Library.shardOf("_Z3sinf") != Library.shardOf("_Z3cosf"));
}

TEST_CASE("the index answers nothing for what the library does not define", "[compiler][library]") {
    const kc::ShardedLibrary& Library = kc::embeddedLibrary();
    REQUIRE_FALSE(Library.shardOf(""));
    REQUIRE_FALSE(Library.shardOf("main"));
    REQUIRE_FALSE(Library.shardOf("_Z13get_global_idj")); // replaced by the passes
    REQUIRE_FALSE(Library.shardOf("_Z3sinf_"));
    REQUIRE(Library.shard(Library.shardCount()).empty());
    REQUIRE(Library.symbol(Library.symbolCount()).empty());
}

TEST_CASE("a damaged library is rejected, not read", "[compiler][library]") {
    const std::string Bytes = copyOfEmbedded();
    REQUIRE(kc::ShardedLibrary(Bytes).valid());
    REQUIRE(kc::ShardedLibrary(Bytes).symbolCount() == kc::embeddedLibrary().symbolCount());

    SECTION("truncated") {
        for (size_t Size : {size_t{0}, size_t{7}, sizeof(kc::library_format::Header), size_t{100},
                            Bytes.size() / 2, Bytes.size() - 1}) {
            const kc::ShardedLibrary Damaged(std::string_view(Bytes).substr(0, Size));
            INFO(Size);
            REQUIRE_FALSE(Damaged.valid());
            REQUIRE_FALSE(Damaged.shardOf("_Z3sinf"));
            REQUIRE(Damaged.shard(0).empty());
            REQUIRE(Damaged.symbolCount() == 0);
        }
    }
    SECTION("wrong magic") {
        std::string Damaged = Bytes;
        Damaged[0] = 'X';
        REQUIRE_FALSE(kc::ShardedLibrary(Damaged).valid());
    }
    SECTION("a shard out of bounds") {
        std::string Damaged = Bytes;
        const uint64_t Huge = ~uint64_t{0} - 8;
        std::memcpy(Damaged.data() + sizeof(kc::library_format::Header), &Huge, sizeof Huge);
        REQUIRE_FALSE(kc::ShardedLibrary(Damaged).valid());
    }
    SECTION("a symbol naming a shard that does not exist") {
        std::string Damaged = Bytes;
        kc::library_format::Header H;
        std::memcpy(&H, Damaged.data(), sizeof H);
        const size_t SymbolTable =
            sizeof H + size_t{H.ShardCount} * sizeof(kc::library_format::ShardEntry);
        const uint32_t Bad = H.ShardCount;
        std::memcpy(Damaged.data() + SymbolTable + offsetof(kc::library_format::SymbolEntry, Shard),
                    &Bad, sizeof Bad);
        REQUIRE_FALSE(kc::ShardedLibrary(Damaged).valid());
    }
}
