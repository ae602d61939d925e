# web.cmake — the libraries the browser build links, made from Debian's own sources by emscripten.
#
# Configured by `emcmake cmake` from tools/web/build.sh, which passes
#   FB_WEB_LUA_SOURCE  the src/ folder of Debian's lua5.4 source package (apt-get source lua5.4)
#   SDL2_DIR           SDL2 built for the page from Debian's libsdl2 source package (its CMake package)
# Lua is compiled here as Debian compiles it for its own liblua5.4 (LUA_COMPAT_5_3, POSIX), so that a
# rule sees the same Lua in the page as on the desktop. stb's implementations are compiled from
# Debian's headers (libstb-dev): its packaged libstb.so is for the machine, not the page.

# Link-time optimisation is off in the page: with Debian's emscripten 3.1.6 (LLVM 14) it made
# crowd_circle 7 % faster in Node, but the page then missed the second of two saves of a rule (the
# browser tests' editor round trip; the same code without -flto reloads it). Not found why: off
# until it is (docs/web.md).
option(FB_WEB_LTO "Link-time optimisation for the page (breaks the hot reload of a second save)" OFF)
if(FB_WEB_LTO)
  add_compile_options(-flto)
  add_link_options(-flto)
endif()

if(NOT FB_WEB_LUA_SOURCE OR NOT EXISTS "${FB_WEB_LUA_SOURCE}/lapi.c")
  message(FATAL_ERROR "FB_WEB_LUA_SOURCE='${FB_WEB_LUA_SOURCE}' is not Lua 5.4's src/ folder "
    "(tools/web/build.sh fetches it with apt-get source lua5.4)")
endif()
file(GLOB FB_WEB_LUA_SOURCES ${FB_WEB_LUA_SOURCE}/*.c)
list(FILTER FB_WEB_LUA_SOURCES EXCLUDE REGEX "/(lua|luac|onelua)\\.c$")
add_library(fb_web_lua STATIC ${FB_WEB_LUA_SOURCES})
target_compile_definitions(fb_web_lua PUBLIC LUA_COMPAT_5_3 PRIVATE LUA_USE_POSIX)
target_compile_options(fb_web_lua PRIVATE -w)  # their code, their warnings
# Debian's luaconf.h names the machine's multiarch folder in its module paths (unused: the sandbox
# has no require of C modules); the page is its own "machine".
file(WRITE ${CMAKE_BINARY_DIR}/lua_config/lua5.4-deb-multiarch.h "#define DEB_HOST_MULTIARCH \"wasm32-emscripten\"\n")
target_include_directories(fb_web_lua SYSTEM PUBLIC ${FB_WEB_LUA_SOURCE} ${CMAKE_BINARY_DIR}/lua_config)

find_path(FB_WEB_STB_INCLUDE stb_truetype.h PATHS /usr/include/stb NO_CMAKE_FIND_ROOT_PATH REQUIRED)
add_library(fb_web_stb STATIC ${CMAKE_SOURCE_DIR}/web/stb_implementation.c)
target_include_directories(fb_web_stb SYSTEM PUBLIC ${FB_WEB_STB_INCLUDE})
target_compile_options(fb_web_stb PRIVATE -w)

find_package(SDL2 REQUIRED CONFIG)

set(FB_LUA_LIBRARY fb_web_lua)
set(FB_STB_LIBRARY fb_web_stb)
set(FB_SDL2_LIBRARY SDL2::SDL2-static)

# In the page the shipped files live in the preloaded folder /flockbox (paths.c looks there first).
set(FB_SHIPPED_FILES "/flockbox")
set(FB_FONT_FILE "/flockbox/fonts/DejaVuSans.ttf")
set(FB_WEB_FONT_SOURCE "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")

# The program of the page: flockbox.js + flockbox.wasm + flockbox.data (the shipped scenarios, rules,
# terrains, plans and the font, preloaded into the page's file system before main runs).
# - one thread (no special headers on the host; the engine gives the same bits on any thread count);
# - memory grows as a scenario asks for it; the stack as the desktop's main thread can rely on;
# - FS for the page's editor and uploads, callMain/ccall for its buttons.
function(fb_web_program target)
  set_target_properties(${target} PROPERTIES SUFFIX ".js")
  target_link_options(${target} PRIVATE
    -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=67108864 -sTOTAL_STACK=8388608
    -sFORCE_FILESYSTEM=1 -sENVIRONMENT=web,node
    "-sEXPORTED_RUNTIME_METHODS=['FS','callMain','ccall','cwrap']"
    "SHELL:--preload-file ${CMAKE_SOURCE_DIR}/scripts@/flockbox/scripts"
    "SHELL:--preload-file ${CMAKE_SOURCE_DIR}/behaviours@/flockbox/behaviours"
    "SHELL:--preload-file ${CMAKE_SOURCE_DIR}/terrains@/flockbox/terrains"
    "SHELL:--preload-file ${CMAKE_SOURCE_DIR}/plans@/flockbox/plans"
    "SHELL:--preload-file ${CMAKE_SOURCE_DIR}/types@/flockbox/types"
    "SHELL:--preload-file ${FB_WEB_FONT_SOURCE}@/flockbox/fonts/DejaVuSans.ttf")
endfunction()
