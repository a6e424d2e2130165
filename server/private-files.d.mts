export declare const PRIVATE_FILE_MODE: number;
export declare const PRIVATE_DIR_MODE: number;
export declare function makePrivateDir(dir: string): void;
export declare function createPrivateFile(file: string): boolean;
export declare function copyToPrivateFile(from: string, to: string): void;
