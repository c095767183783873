// A vector whose first N elements live inside the object: the short lists a
// command carries (the commands waiting for it, the memory objects it keeps
// alive, the buffers an enqueue locks) cost no allocation in the common
// case, and grow on the heap like a std::vector beyond it.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace usmcl::support {

template <class T, std::size_t N>
class SmallVector {
    static_assert(N > 0);
    static_assert(std::is_nothrow_move_constructible_v<T>, "elements are moved when it grows");

public:
    using value_type = T;
    using iterator = T*;
    using const_iterator = const T*;

    SmallVector() noexcept = default;
    SmallVector(SmallVector&& other) noexcept { take(other); }
    SmallVector& operator=(SmallVector&& other) noexcept {
        if (this != &other) {
            clear();
            release_heap();
            take(other);
        }
        return *this;
    }
    SmallVector(const SmallVector&) = delete;
    SmallVector& operator=(const SmallVector&) = delete;
    ~SmallVector() {
        clear();
        release_heap();
    }

    std::size_t size() const noexcept { return size_; }
    bool empty() const noexcept { return size_ == 0; }
    std::size_t capacity() const noexcept { return capacity_; }
    T* data() noexcept { return data_; }
    const T* data() const noexcept { return data_; }
    T* begin() noexcept { return data_; }
    T* end() noexcept { return data_ + size_; }
    const T* begin() const noexcept { return data_; }
    const T* end() const noexcept { return data_ + size_; }
    T& operator[](std::size_t i) noexcept { return data_[i]; }
    const T& operator[](std::size_t i) const noexcept { return data_[i]; }
    T& back() noexcept { return data_[size_ - 1]; }

    void reserve(std::size_t capacity) {
        if (capacity > capacity_)
            reallocate(capacity);
    }

    template <class... A>
    T& emplace_back(A&&... args) {
        if (size_ == capacity_) {
            // The new element first: args may refer to an element.
            const std::size_t capacity = capacity_ * 2;
            T* grown = allocate(capacity);
            try {
                ::new (static_cast<void*>(grown + size_)) T(std::forward<A>(args)...);
            } catch (...) {
                std::allocator<T>().deallocate(grown, capacity);
                throw;
            }
            relocate_to(grown, capacity);
        } else {
            ::new (static_cast<void*>(data_ + size_)) T(std::forward<A>(args)...);
        }
        return data_[size_++];
    }
    void push_back(const T& value) { emplace_back(value); }
    void push_back(T&& value) { emplace_back(std::move(value)); }

    void pop_back() noexcept { data_[--size_].~T(); }
    // Keeps the first count elements (count <= size()).
    void truncate(std::size_t count) noexcept {
        std::destroy(data_ + count, data_ + size_);
        size_ = count;
    }
    // Removes the elements pred holds for, keeping the order of the others.
    template <class Pred>
    std::size_t erase_if(Pred pred) {
        T* keep = data_;
        for (T* it = data_; it != data_ + size_; ++it) {
            if (pred(*it))
                continue;
            if (keep != it)
                *keep = std::move(*it);
            ++keep;
        }
        const std::size_t removed = static_cast<std::size_t>(data_ + size_ - keep);
        truncate(static_cast<std::size_t>(keep - data_));
        return removed;
    }
    void clear() noexcept {
        std::destroy(data_, data_ + size_);
        size_ = 0;
    }

private:
    T* inline_data() noexcept { return std::launder(reinterpret_cast<T*>(inline_)); }
    bool on_heap() const noexcept { return capacity_ > N; }

    static T* allocate(std::size_t capacity) { return std::allocator<T>().allocate(capacity); }
    void release_heap() noexcept {
        if (on_heap())
            std::allocator<T>().deallocate(data_, capacity_);
        data_ = inline_data();
        capacity_ = N;
    }
    // Moves the elements to grown (capacity elements) and frees the old heap block.
    void relocate_to(T* grown, std::size_t capacity) noexcept {
        std::uninitialized_move(data_, data_ + size_, grown);
        std::destroy(data_, data_ + size_);
        if (on_heap())
            std::allocator<T>().deallocate(data_, capacity_);
        data_ = grown;
        capacity_ = capacity;
    }
    void reallocate(std::size_t capacity) { relocate_to(allocate(capacity), capacity); }

    // Takes other's elements; other is left empty (inline).
    void take(SmallVector& other) noexcept {
        if (other.on_heap()) {
            data_ = std::exchange(other.data_, other.inline_data());
            capacity_ = std::exchange(other.capacity_, N);
            size_ = std::exchange(other.size_, 0);
            return;
        }
        std::uninitialized_move(other.data_, other.data_ + other.size_, data_);
        size_ = other.size_;
        other.clear();
    }

    T* data_ = inline_data();
    std::size_t size_ = 0;
    std::size_t capacity_ = N;
    alignas(T) std::byte inline_[N * sizeof(T)];
};

} // namespace usmcl::support
