# SPDX-License-Identifier: GPL-2.0-or-later
# bash completion of pak (installed as share/bash-completion/completions/pak): subcommands,
# options, pak files, folders, and the paths inside a pak for `pak cat` and `pak extract`.

# The paths inside the pak that start with $2, one folder level at a time ("Media/" before
# "Media/Texture/a.gbx"). $1: the pak; the key options come from the words before.
_pak_inner_paths() {
    local pak=$1 cur=$2 keys=() i w
    for ((i = 1; i < ${#COMP_WORDS[@]}; i++)); do
        w=${COMP_WORDS[i]}
        case $w in
            --key | --key-file | --packlist) keys+=("$w" "${COMP_WORDS[i + 1]}") ;;
            --key=* | --key-file=* | --packlist=*) keys+=("$w") ;;
        esac
    done
    local path rest seen=" "
    while IFS= read -r path; do
        [[ $path == "$cur"* ]] || continue
        rest=${path:${#cur}}
        if [[ $rest == */* ]]; then
            path=$cur${rest%%/*}/
        fi
        [[ $seen == *" $path "* ]] && continue
        seen+="$path "
        COMPREPLY+=("$path")
    done < <(timeout 5 pak ls "${keys[@]}" "$pak" 2> /dev/null)
    local p
    for p in "${COMPREPLY[@]}"; do
        if [[ $p == */ ]]; then
            compopt -o nospace 2> /dev/null
            break
        fi
    done
}

# Files ending in .pak (any case) and folders.
_pak_pak_files() {
    local cur=$1 f
    while IFS= read -r f; do
        if [[ -d $f ]] || [[ ${f,,} == *.pak ]]; then COMPREPLY+=("$f"); fi
    done < <(compgen -f -- "$cur")
    for f in "${COMPREPLY[@]}"; do
        if [[ -d $f ]]; then
            compopt -o filenames 2> /dev/null
            break
        fi
    done
}

_pak() {
    local cur prev
    COMPREPLY=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    local keyopts="--key --key-file --packlist"
    local commands="info ls cat extract pack check packlist gbx"

    # The subcommand (and its sub-subcommand) and the positional words after it.
    local cmd="" sub="" args=() i w
    for ((i = 1; i < COMP_CWORD; i++)); do
        w=${COMP_WORDS[i]}
        case $w in
            --key | --key-file | --packlist | --level | --raw | --base | -j | --jobs | --packs)
                ((i++))
                continue
                ;;
            -*) continue ;;
        esac
        if [[ -z $cmd ]]; then
            cmd=$w
        elif [[ -z $sub && ($cmd == packlist || $cmd == gbx) ]]; then
            sub=$w
        else
            args+=("$w")
        fi
    done

    case $prev in
        --key-file | --packlist | --base)
            compopt -o filenames 2> /dev/null
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            return
            ;;
        --key) return ;;
        --level)
            mapfile -t COMPREPLY < <(compgen -W "0 1 2 3 4 5 6 7 8 9" -- "$cur")
            return
            ;;
        -j | --jobs)
            mapfile -t COMPREPLY < <(compgen -W "1 2 4 8 $(nproc 2> /dev/null)" -- "$cur")
            return
            ;;
        --raw) return ;;
        --packs)
            compopt -o filenames 2> /dev/null
            mapfile -t COMPREPLY < <(compgen -d -- "$cur")
            return
            ;;
    esac

    if [[ -z $cmd ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$commands --help --help-all --version" -- "$cur")
        return
    fi

    local opts=""
    case $cmd in
        info) opts="--json $keyopts" ;;
        ls) opts="-l --long --json $keyopts" ;;
        cat) opts="--unverified $keyopts" ;;
        extract) opts="-q --quiet -j --jobs --unverified $keyopts" ;;
        pack) opts="--level --raw --base --fold-skippable -q --quiet $keyopts" ;;
        check) opts="--refs --json -q --quiet $keyopts" ;;
        packlist)
            [[ -z $sub ]] && {
                mapfile -t COMPREPLY < <(compgen -W "ls add" -- "$cur")
                return
            }
            [[ $sub == add ]] && opts="--key-string"
            ;;
        gbx)
            [[ -z $sub ]] && {
                mapfile -t COMPREPLY < <(compgen -W "info refs" -- "$cur")
                return
            }
            case $sub in
                info) opts="--nodes --json $keyopts" ;;
                refs) opts="--packs --json --strict $keyopts" ;;
            esac
            ;;
    esac
    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$opts --help" -- "$cur")
        return
    fi

    local n=${#args[@]}
    case $cmd in
        info | ls | check) ((n == 0)) && _pak_pak_files "$cur" ;;
        cat)
            if ((n == 0)); then _pak_pak_files "$cur"; else ((n == 1)) && _pak_inner_paths "${args[0]}" "$cur"; fi
            ;;
        extract)
            if ((n == 0)); then
                _pak_pak_files "$cur"
            elif ((n == 1)); then
                compopt -o filenames 2> /dev/null
                mapfile -t COMPREPLY < <(compgen -d -- "$cur")
            else
                _pak_inner_paths "${args[0]}" "$cur"
            fi
            ;;
        pack)
            if ((n == 0)); then
                compopt -o filenames 2> /dev/null
                mapfile -t COMPREPLY < <(compgen -d -- "$cur")
            elif ((n == 1)); then
                _pak_pak_files "$cur"
            fi
            ;;
        packlist | gbx)
            compopt -o filenames 2> /dev/null
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            ;;
    esac
}

complete -F _pak pak
