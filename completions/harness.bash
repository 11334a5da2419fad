# bash completion for divharness's `harness` (installed by `make install`
# as PREFIX/share/bash-completion/completions/harness). Everything it
# offers is asked of the harness itself, so it cannot drift: the commands
# from `harness help`, a command's options from `harness CMD --help`, the
# suites, benchmarks, variants and parameters from `harness list`.
_harness_list()
{
    # cached for the shell's life: `harness list` reads no device
    if [[ -z ${_harness_list_cache-} ]]; then
        _harness_list_cache=$("$1" list 2>/dev/null)
    fi
    printf '%s\n' "$_harness_list_cache"
}

_harness()
{
    local cur prev words cword
    _init_completion -n = || return
    local h=${words[0]}
    if ((cword == 1)); then
        local cmds
        cmds=$("$h" help 2>/dev/null | awk '/^commands:/ {on=1; next} on && /^  [a-z-]/ {print $1}')
        COMPREPLY=($(compgen -W "$cmds --version --help" -- "$cur"))
        return
    fi
    local cmd=${words[1]}
    case $cmd in                       # subcommands
        db) if ((cword == 2)); then COMPREPLY=($(compgen -W "add list show steps" -- "$cur")); return; fi ;;
        baseline) if ((cword == 2)); then COMPREPLY=($(compgen -W "save path list" -- "$cur")); return; fi ;;
        cache) if ((cword == 2)); then COMPREPLY=($(compgen -W "show clear verify" -- "$cur")); return; fi ;;
    esac
    case $prev in
        --suite)
            COMPREPLY=($(compgen -W "$(_harness_list "$h" | awk '/^suite / {print $2}') all" -- "$cur"))
            return ;;
        --bench)
            COMPREPLY=($(compgen -W "$(_harness_list "$h" | sed -n 's|^  [a-z]*/\([a-z_0-9]*\) .*|\1|p' | sort -u)" -- "$cur"))
            return ;;
        --variant)
            COMPREPLY=($(compgen -W "baseline cpu_tdr gpu_tdr melded all" -- "$cur"))
            return ;;
        --backend)
            COMPREPLY=($(compgen -W "opencl cuda hip all" -- "$cur"))
            return ;;
        --size)
            COMPREPLY=($(compgen -W "small medium large" -- "$cur"))
            return ;;
        --tune)
            COMPREPLY=($(compgen -W "none journal exhaustive random anneal model" -- "$cur"))
            return ;;
        --param)
            local names
            names=$(_harness_list "$h" | awk '/^    [a-z_0-9]+ +(workload|choice|tunable) / {print $1"="}' | sort -u)
            compopt -o nospace
            COMPREPLY=($(compgen -W "$names" -- "$cur"))
            return ;;
        --out|--dir|--save-tuned|--tuned|--descriptor|--kernel|--csv|--t4|--junit)
            _filedir
            return ;;
    esac
    if [[ $cur == -* ]]; then
        local opts
        opts=$("$h" "$cmd" --help 2>/dev/null | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        return
    fi
    _filedir
}
complete -F _harness harness
