export const TokenScreen = () => <section data-screen="TokenScreen" />;
