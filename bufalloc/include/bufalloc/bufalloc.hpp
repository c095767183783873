// bufalloc: a region allocator for address ranges it never touches (device memory pools).
#pragma once

#include "bufalloc/free_space.hpp"
#include "bufalloc/region.hpp"
#include "bufalloc/shared_region.hpp"
#include "bufalloc/types.hpp"
